"""`gpu-wizard detect [--json] [--python PATH] [--torch]`: what this machine (or a snapshot) is."""
from __future__ import annotations

from app.facts import Facts

HELP = "detect the GPU, driver, CUDA, Python and PyTorch (read-only)"


def add_arguments(parser) -> None:
    parser.add_argument("--python", metavar="PATH", help="the Python interpreter to inspect (default: the first found)")
    parser.add_argument("--torch", action="store_true", help="also run that Python to read its PyTorch (slower)")


def summary(f: Facts) -> str:
    o, d = f.os, f.driver
    lines = []
    osname = o.pretty_name or " ".join(x for x in (o.id, o.version_id) if x) or o.platform
    wsl = f", WSL{o.wsl}" if o.wsl else ""
    lines.append(f"System:  {osname} ({o.arch or '?'}, kernel {o.kernel or '?'}{wsl})" + (f" in {o.container}" if o.container else ""))
    if f.gpus:
        for g in f.gpus:
            mem = f", {round(g.memory_total_mib / 1024)} GiB" if g.memory_total_mib else ""
            cc = f"compute capability {g.compute_capability}" if g.compute_capability else "compute capability unknown"
            pcie = f", PCIe gen{g.pcie_gen_current} x{g.pcie_width_current}" if g.pcie_gen_current and g.pcie_width_current else ""
            lines.append(f"GPU {g.index}:   {g.name} [{g.pci_id or '?'}] ({cc}{mem}{pcie})")
    else:
        lines.append("GPU:     no NVIDIA GPU found")
    drv = f"{d.version} (up to CUDA {d.cuda_version or '?'})" if d.version else "none"
    kind = f", {d.kernel_module} kernel module" if d.kernel_module else ""
    lines.append(f"Driver:  {drv}{kind} - {d.state.replace('_', ' ')}")
    c = f.cuda
    if c.toolkits or c.nvcc_version:
        tk = ", ".join(f"{t.version or '?'} ({t.path})" for t in c.toolkits)
        lines.append(f"CUDA:    {tk or 'none in /usr/local'}" + (f"; nvcc {c.nvcc_version}" if c.nvcc_version else ""))
    else:
        lines.append("CUDA:    no toolkit found")
    if c.cudnn.version:
        lines.append(f"cuDNN:   {c.cudnn.version}")
    if f.python:
        py = f"{f.python.path} ({f.python.version or '?'})"
        t = f.python.torch
        if t is not None:
            py += f"; torch {t.version} (CUDA {t.cuda}, GPU {'yes' if t.available else 'no'})" if t.version else f"; {t.error}"
        lines.append(f"Python:  {py}")
    if f.overrides:
        lines.append("Assumed: " + ", ".join(f"{k}={v}" for k, v in f.overrides.items()))
    if f.findings:
        lines.append("")
        lines.append("Findings:")
        for x in f.findings:
            lines.append(f"  [{x.severity}] {x.message} ({x.code})")
            if x.hint:
                lines.append(f"      -> {x.hint}")
    slow = [p for p in f.probes if p.status == "timeout"]
    if slow:
        lines.append("Timed out: " + ", ".join(p.name for p in slow))
    return "\n".join(lines)


def run(args, ctx) -> int:
    f = ctx.facts(torch=bool(getattr(args, "torch", False)))
    ctx.emit(f.to_json(), summary(f))
    return 0
