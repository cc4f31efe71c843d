"""The report as Markdown (for a ticket or a chat). Charts become small tables of
minimum / mean / maximum per metric and GPU; the full samples are in the JSON format."""
from __future__ import annotations

import shlex
from typing import Any, Iterable, Sequence

from app.report.model import Report


def _c(v: Any) -> str:
    """A table cell: no pipes or newlines."""
    return "" if v is None else str(v).replace("|", "\\|").replace("\n", " ").strip()


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    rows = list(rows)
    if not rows:
        return []
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(_c(x) for x in r) + " |" for r in rows]
    return out + [""]


def _fence(text: str, lang: str = "") -> list[str]:
    fence = "```"
    while fence in text:
        fence += "`"
    return [fence + lang, text, fence, ""]


def _f(v: Any, unit: str = "", nd: int = 1) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        v = f"{v:,.{nd}f}"
    return f"{v} {unit}".strip()


def _stats(values: list[float]) -> tuple[float, float, float]:
    return min(values), sum(values) / len(values), max(values)


def render_markdown(report: Report) -> str:
    L: list[str] = [f"# {report.title}", ""]
    if report.machine:
        L += [f"**{report.machine}**", ""]
    L += [f"Created {report.created} by {report.generator}.", ""]
    red = report.redaction
    if red.redacted:
        counts = ", ".join(f"{n} {k.replace('-', ' ')}{'s' if n != 1 else ''}" for k, n in red.placeholders.items()) or "nothing found to replace"
        L += [f"> Private values were replaced by placeholders such as `<user-1>` ({counts}).", ""]
    else:
        L += [f"> **Warning:** {red.note or 'not redacted'}", ""]
    L += [f"## Summary: {report.overall.upper()}", ""] + [f"- {x}" for x in report.headline] + [""]
    L += [f"_{n}_" for n in report.notes] + ([""] if report.notes else [])
    f = report.facts
    if f:
        os_, drv = f.get("os") or {}, f.get("driver") or {}
        L += ["## Machine", ""]
        L += _table(["Fact", "Value"], [(k, v) for k, v in [
            ("Operating system", os_.get("pretty_name")), ("Kernel", os_.get("kernel")), ("WSL", os_.get("wsl") or None),
            ("Driver", f"{drv.get('state')} {drv.get('version') or ''}".strip()), ("Driver's newest CUDA", drv.get("cuda_version")),
            ("Kernel module", drv.get("kernel_module")), ("Secure Boot", drv.get("secure_boot")), ("Facts from", f.get("source"))] if v not in (None, "")])
        L += _table(["#", "GPU", "CC", "Memory", "PCIe", "UUID"], [
            (g.get("index"), g.get("name"), g.get("compute_capability"), _f(g.get("memory_total_mib"), "MiB"),
             f"Gen{g.get('pcie_gen_current')} x{g.get('pcie_width_current')}" if g.get("pcie_gen_current") else "", g.get("uuid"))
            for g in f.get("gpus") or []]) or ["No NVIDIA GPU was found.", ""]
        cuda = f.get("cuda") or {}
        L += _table(["CUDA toolkit", "Version"], [(t.get("path"), t.get("version")) for t in cuda.get("toolkits") or []])
        py = f.get("python") or {}
        if py:
            t = py.get("torch") or {}
            L += [f"Target Python: `{py.get('path')}` {py.get('version') or ''}; PyTorch {t.get('version') or 'not installed'}"
                  + (f" (CUDA {t['cuda']})" if t.get("cuda") else ""), ""]
        env = (f.get("env") or {}).get("variables") or {}
        L += _table(["Variable", "Value"], sorted(env.items()))
        if f.get("findings"):
            L += ["### Findings", ""]
            for x in f["findings"]:
                L.append(f"- **{x.get('severity')}** {x.get('message')} (`{x.get('code')}`)" + (f" — {x['hint']}" if x.get("hint") else ""))
            L.append("")
    r = report.recommendation
    if r:
        pt, dr, tk = r.get("pytorch") or {}, r.get("driver") or {}, r.get("cuda_toolkit") or {}
        L += ["## Recommendation", ""]
        L += _table(["Part", "Choice", "Why"], [
            ("PyTorch", f"{pt.get('version') or 'none'} ({pt.get('index') or '-'})", pt.get("reason")),
            ("Driver", f"{dr.get('action')} {dr.get('package') or ''}".strip(), dr.get("reason")),
            ("CUDA toolkit", tk.get("version") if tk.get("wanted") else "not needed", tk.get("reason"))])
        if pt.get("command"):
            L += _fence(pt["command"], "sh")
        L += [f"- {w.get('severity')}: {w.get('message')}" for w in r.get("warnings") or []] + ([""] if r.get("warnings") else [])
    if report.steps or report.session:
        L += ["## Plan and what happened", ""]
        if report.session:
            L += [f"Session folder: `{report.session.path}` — {report.session.status}", ""]
        L += _table(["#", "Step", "Result", "Time", "Exit code", "Message"], [
            (i, f"{s.title or s.id} (`{s.id}`)", s.status, _f(s.duration_s, "s"), s.rc, s.message) for i, s in enumerate(report.steps, 1)])
        for i, s in enumerate(report.steps, 1):
            if s.commands:
                L += [f"{i}. {s.title or s.id}:", ""] + _fence("\n".join(s.commands), "sh")
    for ex in report.logs:
        L += [f"## Log: {ex.source} ({ex.reason}, lines {ex.first_line}–{ex.last_line} of {ex.total_lines})", ""]
        L += _fence("\n".join(("> " if n == ex.focus_line else "  ") + line for n, line in enumerate(ex.text.split("\n"), ex.first_line)))
        if ex.full_log and ex.truncated:
            L += [f"The full log is in the session folder: `{ex.full_log}`", ""]
    v = report.verification
    if v:
        L += ["## Verification", ""]
        L += _table(["Layer", "Result", "Why"], [(x.get("name"), x.get("status"), x.get("reason")) for x in v.get("layers") or []])
        for g in v.get("gpus") or []:
            b, c = g.get("bandwidth") or {}, g.get("compute") or {}
            L += [f"### GPU {g.get('index')}: {(g.get('device') or {}).get('name')}", ""]
            L += _table(["Measure", "Result", "Ceiling"], [
                ("Host → GPU pinned", _f(b.get("h2d_pinned_gbps"), "GB/s", 2), _f(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
                ("GPU → host pinned", _f(b.get("d2h_pinned_gbps"), "GB/s", 2), _f(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
                ("GPU memory copy", _f(b.get("d2d_gbps"), "GB/s"), _f(b.get("memory_theoretical_gbps"), "GB/s"))]
                + [(f"matmul {k}", _f(x, "TFLOP/s"), "") for k, x in (c.get("matmul_tflops") or {}).items()])
        samples = [s for s in v.get("samples") or [] if isinstance(s, dict)]
        if samples:
            rows = []
            for key, name, unit in (("util_pct", "GPU utilization", "%"), ("mem_used_mib", "Memory used", "MiB"), ("power_w", "Power", "W"),
                                    ("sm_clock_mhz", "SM clock", "MHz"), ("temp_c", "Temperature", "°C")):
                for gi in sorted({s.get("gpu_index", 0) for s in samples}):
                    vals = [float(s[key]) for s in samples if s.get("gpu_index", 0) == gi and isinstance(s.get(key), (int, float))]
                    if vals:
                        lo, mean, hi = _stats(vals)
                        rows.append((f"{name} ({unit})", gi, len(vals), _f(lo), _f(mean), _f(hi)))
            L += [f"Samples over {max(s.get('t_s') or 0 for s in samples):.0f} s (charts in the HTML report):", ""]
            L += _table(["Metric", "GPU", "Samples", "Min", "Mean", "Max"], rows)
    d = report.diagnosis
    if d:
        L += ["## Diagnosis", ""]
        for m in d.get("matches") or []:
            conf = m.get("confidence")
            L += [f"- **{m.get('root_cause')}** ({m.get('category')}" + (f", {conf * 100:.0f}% sure" if isinstance(conf, (int, float)) else "") + ")",
                  f"  - Fix: {m.get('fix')}"]
            for fs in m.get("fix_steps") or []:
                for a in fs.get("argv") or []:
                    L.append(f"  - `{shlex.join(str(x) for x in a)}`")
        if not d.get("matches"):
            L.append(d.get("message") or "No known problem matched.")
        L.append("")
    s = report.snapshot
    if s:
        L += ["## Snapshot", "", f"The machine's snapshot ({s.get('format')}, recorded {s.get('created')}) is embedded in the JSON "
              f"and HTML forms of this report: {len(s.get('files') or {})} files, {len(s.get('commands') or {})} command outputs.", ""]
    L += ["---", f"{report.format} · {report.generator}", ""]
    return "\n".join(L)
