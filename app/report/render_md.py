"""The report as Markdown (for a ticket or a chat). Charts become small tables of
minimum / mean / maximum per metric and GPU; the full samples are in the JSON format."""
from __future__ import annotations

import shlex
from typing import Any, Iterable, Sequence

from app.report.model import Report
from app.report.words import LANG, _t
from app.report import words as W


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
    token = LANG.set(getattr(report, "lang", "en") or "en")
    try:
        return _render(report)
    finally:
        LANG.reset(token)


def _render(report: Report) -> str:
    L: list[str] = [f"# {_t(report.title)}", ""]
    if report.machine:
        L += [f"**{report.machine}**", ""]
    L += [_t("Created {created} by {generator}.", created=report.created, generator=report.generator), ""]
    red = report.redaction
    if red.redacted:
        counts = ", ".join(f"{n} {k.replace('-', ' ')}{'s' if n != 1 else ''}" for k, n in red.placeholders.items()) or _t("nothing found to replace")
        L += ["> " + _t("Private values were replaced by placeholders such as `<user-1>` ({counts}).", counts=counts), ""]
    else:
        L += [f"> **{_t('Warning')}:** {red.note or _t('not redacted')}", ""]
    L += [f"## {_t('Summary')}: {_t(report.overall.upper())}", ""] + [f"- {x}" for x in report.headline] + [""]
    L += [f"_{n}_" for n in report.notes] + ([""] if report.notes else [])
    f = report.facts
    if f:
        os_, drv = f.get("os") or {}, f.get("driver") or {}
        L += [_t("## Machine"), ""]
        L += _table([_t("Fact"), _t("Value")], [(k, v) for k, v in [
            (_t("Operating system"), os_.get("pretty_name")), (_t("Kernel"), os_.get("kernel")), ("WSL", os_.get("wsl") or None),
            (_t("Driver"), f"{drv.get('state')} {drv.get('version') or ''}".strip()), (_t("Driver's newest CUDA"), drv.get("cuda_version")),
            (_t("Kernel module"), drv.get("kernel_module")), (_t("Secure Boot"), drv.get("secure_boot")), (_t("Facts from"), f.get("source"))] if v not in (None, "")])
        L += _table(["#", "GPU", "CC", _t("Memory"), "PCIe", "UUID"], [
            (g.get("index"), g.get("name"), g.get("compute_capability"), _f(g.get("memory_total_mib"), "MiB"),
             f"Gen{g.get('pcie_gen_current')} x{g.get('pcie_width_current')}" if g.get("pcie_gen_current") else "", g.get("uuid"))
            for g in f.get("gpus") or []]) or [_t("No NVIDIA GPU was found."), ""]
        cuda = f.get("cuda") or {}
        L += _table([_t("CUDA toolkit"), _t("Version")], [(t.get("path"), t.get("version")) for t in cuda.get("toolkits") or []])
        py = f.get("python") or {}
        if py:
            t = py.get("torch") or {}
            L += [_t("Target Python: {python}; PyTorch {torch}", python=f"`{py.get('path')}` {py.get('version') or ''}".strip(),
                     torch=t.get('version') or _t('not installed')) + (f" (CUDA {t['cuda']})" if t.get("cuda") else ""), ""]
        env = (f.get("env") or {}).get("variables") or {}
        L += _table([_t("Variable"), _t("Value")], sorted(env.items()))
        if f.get("findings"):
            L += [_t("### Findings"), ""]
            for x in f["findings"]:
                h = W.hint("finding", x)
                L.append(f"- **{_t(str(x.get('severity')))}** {W.say('finding', x)} (`{x.get('code')}`)" + (f" — {h}" if h else ""))
            L.append("")
    r = report.recommendation
    if r:
        pt, dr, tk = r.get("pytorch") or {}, r.get("driver") or {}, r.get("cuda_toolkit") or {}
        L += [_t("## Recommendation"), ""]
        L += _table([_t("Part"), _t("Choice"), _t("Why")], [
            ("PyTorch", f"{pt.get('version') or _t('none')} ({pt.get('index') or '-'})", W.reason(pt)),
            (_t("Driver"), f"{_t(str(dr.get('action')))} {dr.get('package') or ''}".strip(), W.reason(dr)),
            (_t("CUDA toolkit"), tk.get("version") if tk.get("wanted") else _t("not needed"), W.reason(tk))])
        if pt.get("command"):
            L += _fence(pt["command"], "sh")
        L += [f"- {_t(str(w.get('severity')))}: {W.say('rec', w)}" for w in r.get("warnings") or []] + ([""] if r.get("warnings") else [])
    if report.steps or report.session:
        L += [_t("## Plan and what happened"), ""]
        if report.session:
            L += [f"{_t('Session folder')}: `{report.session.path}` — {W.status(report.session.status)}", ""]
        L += _table(["#", _t("Step"), _t("Result"), _t("Time"), _t("Exit code"), _t("Message")], [
            (i, f"{W.report_step(report, s, 'title')} (`{s.id}`)", W.status(s.status), _f(s.duration_s, "s"), s.rc, s.message) for i, s in enumerate(report.steps, 1)])
        for i, s in enumerate(report.steps, 1):
            if s.commands:
                L += [f"{i}. {W.report_step(report, s, 'title')}:", ""] + _fence("\n".join(s.commands), "sh")
    for ex in report.logs:
        L += ["## " + _t("Log: {source} ({reason}, lines {first}–{last} of {total})", source=ex.source, reason=ex.reason,
                         first=ex.first_line, last=ex.last_line, total=ex.total_lines), ""]
        L += _fence("\n".join(("> " if n == ex.focus_line else "  ") + line for n, line in enumerate(ex.text.split("\n"), ex.first_line)))
        if ex.full_log and ex.truncated:
            L += [_t("The full log is in the session folder: {path}", path=f"`{ex.full_log}`"), ""]
    v = report.verification
    if v:
        L += [_t("## Verification"), ""]
        L += _table([_t("Layer"), _t("Result"), _t("Why")], [(_t(str(x.get("name"))), _t(str(x.get("status"))), W.layer_reason(x)) for x in v.get("layers") or []])
        for g in v.get("gpus") or []:
            b, c = g.get("bandwidth") or {}, g.get("compute") or {}
            L += [f"### GPU {g.get('index')}: {(g.get('device') or {}).get('name')}", ""]
            L += _table([_t("Measure"), _t("Result"), _t("Ceiling")], [
                (_t("Host → GPU pinned"), _f(b.get("h2d_pinned_gbps"), "GB/s", 2), _f(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
                (_t("GPU → host pinned"), _f(b.get("d2h_pinned_gbps"), "GB/s", 2), _f(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
                (_t("GPU memory copy"), _f(b.get("d2d_gbps"), "GB/s"), _f(b.get("memory_theoretical_gbps"), "GB/s"))]
                + [(f"matmul {k}", _f(x, "TFLOP/s"), "") for k, x in (c.get("matmul_tflops") or {}).items()])
        samples = [s for s in v.get("samples") or [] if isinstance(s, dict)]
        if samples:
            rows = []
            for key, name, unit in (("util_pct", _t("GPU utilization"), "%"), ("mem_used_mib", _t("Memory used"), "MiB"), ("power_w", _t("Power"), "W"),
                                    ("sm_clock_mhz", _t("SM clock"), "MHz"), ("temp_c", _t("Temperature"), "°C")):
                for gi in sorted({s.get("gpu_index", 0) for s in samples}):
                    vals = [float(s[key]) for s in samples if s.get("gpu_index", 0) == gi and isinstance(s.get(key), (int, float))]
                    if vals:
                        lo, mean, hi = _stats(vals)
                        rows.append((f"{name} ({unit})", gi, len(vals), _f(lo), _f(mean), _f(hi)))
            L += [_t("Samples over {seconds} s (charts in the HTML report):", seconds=f"{max(s.get('t_s') or 0 for s in samples):.0f}"), ""]
            L += _table([_t("Metric"), "GPU", _t("Samples"), _t("Min"), _t("Mean"), _t("Max")], rows)
    d = report.diagnosis
    if d:
        L += [_t("## Diagnosis"), ""]
        for m in d.get("matches") or []:
            conf = m.get("confidence")
            L += [f"- **{W.match(m, 'root_cause')}** ({m.get('category')}" + (_t(", {pct}% sure", pct=f"{conf * 100:.0f}") if isinstance(conf, (int, float)) else "") + ")",
                  f"  - {_t('Fix')}: {W.match(m, 'fix')}"]
            for fs in m.get("fix_steps") or []:
                for a in fs.get("argv") or []:
                    L.append(f"  - `{shlex.join(str(x) for x in a)}`")
        if not d.get("matches"):
            L.append(d.get("message") or _t("No known problem matched."))
        L.append("")
    snap = report.snapshot
    if snap:
        L += [_t("## Snapshot"), "", _t("The machine's snapshot ({format}, recorded {created}) is embedded in the JSON and HTML forms of this "
                                        "report: {files} files, {commands} command outputs.", format=snap.get('format'), created=snap.get('created'),
                                        files=len(snap.get('files') or {}), commands=len(snap.get('commands') or {})), ""]
    L += ["---", f"{report.format} · {report.generator}", ""]
    return "\n".join(L)
