"""Record a real PyTorch profiler (Kineto) trace of a small data-parallel training step on a GPU node.

Run on a machine with >= 1 CUDA GPU: `python3 bench/gpu_trace.py --out DIR [--steps N]`. One process
per GPU, NCCL all-reduce through DDP; writes DIR/trace_rank{R}.json.gz, the same files HTA reads.
These are the fixtures behind tests/test_parser_chrome_trace.py and bench/ingest.py.
"""
from __future__ import annotations

import argparse
import gzip
import os
import shutil

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Block(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 8, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        h = self.ln(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln(x))


def worker(rank: int, world: int, out: str, steps: int) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("nccl", rank=rank, world_size=world)
    torch.cuda.set_device(rank)
    d = 512
    model = DDP(nn.Sequential(*[Block(d) for _ in range(4)], nn.Linear(d, 1000)).cuda(), device_ids=[rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    x = torch.randn(32, 128, d, device="cuda")
    y = torch.randint(0, 1000, (32, 128), device="cuda")
    lossf = nn.CrossEntropyLoss()

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = lossf(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    sched = torch.profiler.schedule(wait=1, warmup=2, active=steps, repeat=1)
    path = os.path.join(out, f"trace_rank{rank}.json")
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA],
            schedule=sched, record_shapes=True,
            on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for i in range(steps + 3):
            with torch.profiler.record_function(f"ProfilerStep#{i}"):
                step()
            prof.step()
    torch.cuda.synchronize()
    with open(path, "rb") as src, gzip.open(path + ".gz", "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(path)
    dist.destroy_process_group()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    world = torch.cuda.device_count()
    mp.spawn(worker, args=(world, a.out, a.steps), nprocs=world, join=True)


if __name__ == "__main__":
    main()
