"""`gpu-wizard detect [--json] [--python PATH] [--torch]`: what this machine (or a snapshot) is."""
from __future__ import annotations

from app.facts import Facts
from app.messages import cli, finding_hint, finding_text, word

HELP = "detect the GPU, driver, CUDA, Python and PyTorch (read-only)"


def add_arguments(parser) -> None:
    parser.add_argument("--python", metavar="PATH", help="the Python interpreter to inspect (default: the first found)")
    parser.add_argument("--torch", action="store_true", help="also run that Python to read its PyTorch (slower)")


def summary(f: Facts, lang: str = "en") -> str:
    """The human text of `detect`, in `lang` (the words from the message catalogue, the figures as detected)."""
    def t(key: str, **p) -> str:
        return cli(f"detect_{key}", lang, **p)

    o, d = f.os, f.driver
    lines = []
    osname = o.pretty_name or " ".join(x for x in (o.id, o.version_id) if x) or o.platform
    wsl = f", WSL{o.wsl}" if o.wsl else ""
    lines.append(t("system", os=osname, arch=o.arch or "?", kernel=o.kernel or "?", wsl=wsl,
                   container=t("in_container", container=o.container) if o.container else ""))
    if f.gpus:
        for g in f.gpus:
            mem = f", {round(g.memory_total_mib / 1024)} GiB" if g.memory_total_mib else ""
            cc = t("cc", cc=g.compute_capability) if g.compute_capability else t("cc_unknown")
            pcie = f", PCIe gen{g.pcie_gen_current} x{g.pcie_width_current}" if g.pcie_gen_current and g.pcie_width_current else ""
            lines.append(t("gpu", index=g.index, name=g.name, pci=g.pci_id or "?", cc=cc, mem=mem, pcie=pcie))
    else:
        lines.append(t("no_gpu"))
    drv = t("driver_version", version=d.version, cuda=d.cuda_version or "?") if d.version else t("none")
    kind = t("kernel_module", kind=word("kernel_module", d.kernel_module, lang)) if d.kernel_module else ""
    lines.append(t("driver", driver=drv, kind=kind, state=word("state", d.state, lang) if lang != "en" else d.state.replace("_", " ")))
    c = f.cuda
    if c.toolkits or c.nvcc_version:
        tk = ", ".join(f"{x.version or '?'} ({x.path})" for x in c.toolkits)
        lines.append(t("cuda", toolkits=tk or t("cuda_none_local"), nvcc=t("nvcc", version=c.nvcc_version) if c.nvcc_version else ""))
    else:
        lines.append(t("no_toolkit"))
    if c.cudnn.version:
        lines.append(t("cudnn", version=c.cudnn.version))
    if f.python:
        py = f"{f.python.path} ({f.python.version or '?'})"
        tp = f.python.torch
        if tp is not None:
            py += t("torch", version=tp.version, cuda=tp.cuda, gpu=t("yes") if tp.available else t("no")) if tp.version else f"; {tp.error}"
        lines.append(t("python", python=py))
    if f.overrides:
        lines.append(t("assumed", assumed=", ".join(f"{k}={v}" for k, v in f.overrides.items())))
    if f.findings:
        lines.append("")
        lines.append(t("findings"))
        for x in f.findings:
            lines.append(f"  [{word('severity', x.severity, lang)}] {finding_text(x, lang)} ({x.code})")
            hint = finding_hint(x, lang)
            if hint:
                lines.append(f"      -> {hint}")
    slow = [p for p in f.probes if p.status == "timeout"]
    if slow:
        lines.append(t("timed_out", probes=", ".join(p.name for p in slow)))
    return "\n".join(lines)


def run(args, ctx) -> int:
    f = ctx.facts(torch=bool(getattr(args, "torch", False)))
    ctx.emit(f.to_json(), summary(f, ctx.lang))
    return 0
