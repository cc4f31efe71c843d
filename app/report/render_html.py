"""One self-contained HTML file: styles inline, charts as inline SVG drawn from the samples,
no script, no font, no image fetched from anywhere. Light, readable, printable.

The whole report's JSON is embedded as a non-executed `application/json` block, so the same
file opens in the wizard's walkthrough mode (`load_report_json`).
"""
from __future__ import annotations

import json
import re
from html import escape
from typing import Any, Iterable, Optional, Sequence

from app.report.charts import bar_chart, line_chart
from app.report.model import Report
from app.report.words import LANG, _t
from app.report import words as W

EMBED_ID = "gpu-wizard-report"

CSS = """
:root{--fg:#18181b;--muted:#52525b;--line:#e4e4e7;--bg:#ffffff;--soft:#f4f4f5;--pass:#15803d;--warn:#b45309;--fail:#b91c1c;--info:#1d4ed8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,"Noto Sans",sans-serif}
main{max-width:1000px;margin:0 auto;padding:28px 28px 60px}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:19px;margin:34px 0 10px;padding-bottom:6px;border-bottom:2px solid var(--line)}
h3{font-size:16px;margin:20px 0 8px}
p{margin:6px 0}
.sub{color:var(--muted);margin:0 0 14px}
.banner{border-radius:8px;padding:10px 14px;margin:14px 0;border:1px solid}
.banner.redacted{background:#f0fdf4;border-color:#bbf7d0}
.banner.raw{background:#fef2f2;border-color:#fecaca;font-weight:600}
.overall{display:flex;gap:14px;align-items:flex-start;border:1px solid var(--line);border-radius:10px;padding:14px 16px;margin:16px 0;background:var(--soft)}
.overall ul{margin:0;padding-left:18px}
.badge{display:inline-block;border-radius:999px;padding:1px 10px;font-size:12px;font-weight:700;letter-spacing:.03em;text-transform:uppercase;border:1px solid;white-space:nowrap}
.badge.big{font-size:15px;padding:4px 14px}
.pass,.ok{color:var(--pass);border-color:#86efac;background:#f0fdf4}
.warn,.warning,.cancelled,.skip,.skipped,.reboot_required,.interrupted{color:var(--warn);border-color:#fcd34d;background:#fffbeb}
.fail,.error{color:var(--fail);border-color:#fca5a5;background:#fef2f2}
.info,.pending,.unknown,.running,.new{color:var(--info);border-color:#bfdbfe;background:#eff6ff}
table{border-collapse:collapse;width:100%;margin:8px 0 12px;font-size:14px}
th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}
th{background:var(--soft);font-weight:600}
table.kv th{width:30%;background:none;color:var(--muted);font-weight:500}
code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
code{background:var(--soft);padding:1px 4px;border-radius:4px;overflow-wrap:anywhere}
pre{background:#fafafa;border:1px solid var(--line);border-radius:6px;padding:10px 12px;white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0}
pre.log{max-height:none;line-height:1.35}
pre.log .ln{color:#a1a1aa;user-select:none}
pre.log .focus{background:#fee2e2;display:inline-block;width:100%}
.muted{color:var(--muted)}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0;break-inside:avoid}
.chart{display:block;margin:8px 0 14px;border:1px solid var(--line);border-radius:6px;break-inside:avoid}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:10px}
nav.toc{font-size:14px;color:var(--muted)}
nav.toc a{color:var(--info);margin-right:12px;text-decoration:none}
footer{margin-top:40px;color:var(--muted);font-size:13px;border-top:1px solid var(--line);padding-top:10px}
@media print{body{font-size:12px}main{max-width:none;padding:0}h2{break-after:avoid}.chart,.card,table{break-inside:avoid}nav.toc{display:none}pre{white-space:pre-wrap}}
"""


def _e(v: Any) -> str:
    return escape("" if v is None else str(v))


def _badge(status: Optional[str], big: bool = False, text: Optional[str] = None) -> str:
    s = (status or "unknown").lower()
    return f"<span class='badge {escape(s)}{' big' if big else ''}'>{escape(s if text is None else text)}</span>"


def _run_badge(status: Optional[str]) -> str:
    """A step's or run's status (the one vocabulary), in the report's language."""
    return _badge(status, text=W.status(status))


def _kv(rows: Iterable[tuple[str, Any]]) -> str:
    body = "".join(f"<tr><th>{_e(k)}</th><td>{v if isinstance(v, _Raw) else _e(v)}</td></tr>"
                   for k, v in rows if v not in (None, "", [], (), {}))
    return f"<table class='kv'>{body}</table>" if body else ""


class _Raw(str):
    """Already-escaped HTML."""


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], cls: str = "") -> str:
    rows = list(rows)
    if not rows:
        return ""
    h = "".join(f"<th>{_e(x)}</th>" for x in head)
    b = "".join("<tr>" + "".join(f"<td>{c if isinstance(c, _Raw) else _e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table class='{cls}'><thead><tr>{h}</tr></thead><tbody>{b}</tbody></table>"


def _argv(a: Any) -> str:
    """An argv list as one line a user can paste into a shell."""
    import shlex

    return shlex.join(str(x) for x in a) if isinstance(a, (list, tuple)) else str(a)


def _yn(v: Any) -> Optional[str]:
    return None if v is None else ("yes" if v else "no")


def _fmt(v: Any, unit: str = "", nd: int = 1) -> Optional[str]:
    if v is None:
        return None
    if isinstance(v, float):
        v = f"{v:,.{nd}f}"
    return f"{v} {unit}".strip()


# ---------------------------------------------------------------------------------------------


def _facts_html(f: dict[str, Any]) -> str:
    out = [("<h2 id='machine'>" + _e(_t("Machine")) + "</h2>")]
    os_ = f.get("os") or {}
    drv = f.get("driver") or {}
    out.append("<div class='grid2'><div>")
    out.append(("<h3>" + _e(_t("System")) + "</h3>") + _kv([
        (_t("Operating system"), os_.get("pretty_name") or " ".join(x for x in (os_.get("id"), os_.get("version_id")) if x)),
        (_t("Kernel"), os_.get("kernel")), (_t("Architecture"), os_.get("arch")),
        ("WSL", f"WSL{os_['wsl']}" if os_.get("wsl") else None), (_t("Container"), os_.get("container")),
        (_t("Package manager"), os_.get("package_manager")), (_t("Memory"), _fmt(os_.get("memory_total_mib"), "MiB")),
        (_t("Free disk (/usr/local)"), _fmt(os_.get("free_disk_mib"), "MiB")), (_t("Windows build"), os_.get("windows_build")),
        (_t("Facts from"), f.get("source")), (_t("Recorded"), f.get("created")),
    ]))
    out.append("</div><div>")
    out.append(("<h3>" + _e(_t("NVIDIA driver")) + "</h3>") + _kv([
        (_t("State"), _Raw(_badge("pass" if drv.get("state") in ("ok", "host") else "warn") + " " + _e(drv.get("state")))),
        (_t("Version"), drv.get("version")), (_t("Newest CUDA it supports"), drv.get("cuda_version")),
        (_t("Kernel module"), " ".join(x for x in (drv.get("kernel_module"), drv.get("kernel_module_version")) if x) or None),
        (_t("Modules loaded"), ", ".join(drv.get("modules_loaded") or []) or None), (_t("nouveau loaded"), _yn(drv.get("nouveau_loaded"))),
        (_t("Secure Boot"), _yn(drv.get("secure_boot"))), (_t("Kernel headers"), _yn(drv.get("kernel_headers_installed"))),
        (_t("Windows driver"), drv.get("windows_version")), (_t("Hint"), drv.get("hint")),
    ]))
    out.append("</div></div>")
    win = f.get("windows") or {}
    if win:
        out.append(("<h3>" + _e(_t("Windows and WSL")) + "</h3>") + _kv([
            (_t("Windows build"), win.get("build")), (_t("Virtualization"), _yn(win.get("virtualization_enabled"))),
            (_t("WSL installed"), _yn(win.get("wsl_installed"))), (_t("WSL default version"), win.get("wsl_default_version")),
            ("nvidia-smi", win.get("nvidia_smi_path"))]))
        out.append(_table([_t("Distribution"), _t("State"), _t("WSL version"), _t("Default")], [
            (d.get("name"), d.get("state"), d.get("version"), "yes" if d.get("default") else "") for d in win.get("distros") or []]))
    gpus = f.get("gpus") or []
    out.append(("<h3>" + _e(_t("GPUs")) + "</h3>"))
    if gpus:
        out.append(_table(["#", _t("Name"), _t("Compute capability"), _t("Memory"), _t("PCIe (now / max)"), _t("Power limit"), "UUID", _t("Source")], [
            (g.get("index"), g.get("name"), " ".join(x for x in (g.get("compute_capability"), f"({g['architecture']})" if g.get("architecture") else None) if x),
             _fmt(g.get("memory_total_mib"), "MiB"),
             f"Gen{g.get('pcie_gen_current')} x{g.get('pcie_width_current')} / Gen{g.get('pcie_gen_max')} x{g.get('pcie_width_max')}"
             if g.get("pcie_gen_current") else "", _fmt(g.get("power_limit_w"), "W", 0), g.get("uuid") or "", g.get("source"))
            for g in gpus]))
    else:
        out.append(("<p class='muted'>" + _e(_t("No NVIDIA GPU was found.")) + "</p>"))
    cuda = f.get("cuda") or {}
    rows = [(t.get("path"), t.get("version"), t.get("source")) for t in cuda.get("toolkits") or []]
    out.append(("<h3>" + _e(_t("CUDA")) + "</h3>"))
    out.append(_table([_t("Toolkit"), _t("Version"), _t("Found by")], rows) or ("<p class='muted'>" + _e(_t("No CUDA toolkit installed (PyTorch wheels bring their own runtime).")) + "</p>"))
    cudnn = cuda.get("cudnn") or {}
    out.append(_kv([(_t("/usr/local/cuda points to"), cuda.get("active_link")), ("nvcc", " ".join(x for x in (cuda.get("nvcc_path"), cuda.get("nvcc_version")) if x) or None),
                    ("cuDNN", cudnn.get("version")),
                    (_t("Packages"), ", ".join(f"{p.get('name')} {p.get('version')}" for p in (cuda.get("packages") or [])[:30]) or None)]))
    pys = f.get("pythons") or []
    if pys or f.get("python"):
        out.append(("<h3>" + _e(_t("Python and PyTorch")) + "</h3>"))
        sel = (f.get("python") or {}).get("path")
        py_rows: list[tuple[Any, ...]] = []
        for p in pys or [f.get("python")]:
            t = p.get("torch") or {}
            py_rows.append(((_t("▶ ") if p.get("path") == sel else "") + str(p.get("path")), p.get("version"), p.get("kind"),
                         t.get("version") or "—", t.get("cuda") or (_t("CPU build") if t.get("version") else "—"),
                         _yn(t.get("available")) or "—", t.get("error") or ""))
        out.append(_table([_t("Interpreter"), "Python", _t("Kind"), "PyTorch", _t("Its CUDA"), _t("GPU usable"), _t("Error")], py_rows))
    env = f.get("env") or {}
    if env.get("variables"):
        out.append(("<h3>" + _e(_t("Environment")) + "</h3>") + _table([_t("Variable"), _t("Value")], sorted(env["variables"].items())))
    if env.get("rc_lines"):
        out.append(_table([_t("File"), _t("Line"), _t("Text")], [(x.get("file"), x.get("line_no"), _Raw(f"<code>{_e(x.get('text'))}</code>"))
                                                      for x in env["rc_lines"]]))
    if env.get("ld_conf"):
        out.append(_table([_t("Linker config"), _t("Adds"), _t("Status")], [(x.get("file"), x.get("path"), x.get("status")) for x in env["ld_conf"]]))
    findings = f.get("findings") or []
    out.append(("<h3>" + _e(_t("Findings")) + "</h3>"))
    if findings:
        for x in findings:
            ev = "".join(f"<li><code>{_e(e)}</code></li>" for e in (x.get("evidence") or [])[:8])
            h = W.hint("finding", x)
            out.append(f"<div class='card'>{_badge(x.get('severity'))} <b>{_e(W.say('finding', x))}</b> <span class='muted'>({_e(x.get('code'))})</span>"
                       + (f"<p>{_e(_t('What to do: {hint}', hint=h))}</p>" if h else "") + (f"<ul>{ev}</ul>" if ev else "") + "</div>")
    else:
        out.append(("<p class='muted'>" + _e(_t("Nothing to report.")) + "</p>"))
    if f.get("overrides"):
        out.append(f"<p><b>{_e(_t('Overrides applied'))}</b> {_e(_t('(these facts were assumed, not detected):'))} "
                   + ", ".join(f"<code>{_e(k)}={_e(v)}</code>" for k, v in f["overrides"].items()) + "</p>")
    probes = f.get("probes") or []
    if probes:
        out.append(("<h3>" + _e(_t("Detection log")) + "</h3>") + _table([_t("Probe"), _t("Result"), _t("Time"), _t("Detail")], [
            (p.get("name"), p.get("status"), _fmt(p.get("duration_ms"), "ms"), p.get("detail")) for p in probes]))
    return "".join(out)


def _rec_html(r: dict[str, Any]) -> str:
    out = [("<h2 id='recommendation'>" + _e(_t("Recommendation")) + "</h2>")]
    pt, dr, tk, cn = (r.get(k) or {} for k in ("pytorch", "driver", "cuda_toolkit", "cudnn"))
    out.append(_table([_t("Part"), _t("Choice"), _t("Why")], [
        ("PyTorch", " ".join(x for x in (pt.get("version"), f"({pt['index']})" if pt.get("index") else None) if x) or _t("none can run here"), W.reason(pt)),
        (_t("NVIDIA driver"), " ".join(x for x in (_t(str(dr.get("action"))) if dr.get("action") else None, dr.get("package") or dr.get("branch"),
                                                   _t("(needs ≥ {version})", version=dr['min_version']) if dr.get("min_version") else None) if x), W.reason(dr)),
        (_t("CUDA toolkit"), _t("install {version}", version=tk.get("version") or "") if tk.get("wanted") else _t("not needed"), W.reason(tk)),
        ("cuDNN", " ".join(x for x in (cn.get("version"), _t("from the {source}", source=_t(str(cn['source']))) if cn.get("source") else None) if x) or "—", W.reason(cn)),
    ]))
    if pt.get("command"):
        out.append(f"<p>{_e(_t('Install command:'))}</p><pre>{_e(pt['command'])}</pre>")
    if pt.get("uv_command"):
        out.append(f"<p>{_e(_t('With uv:'))}</p><pre>{_e(pt['uv_command'])}</pre>")
    for w in r.get("warnings") or []:
        out.append(f"<div class='card'>{_badge(w.get('severity'))} {_e(W.say('rec', w))} <span class='muted'>({_e(w.get('code'))})</span></div>")
    alts = r.get("alternatives") or []
    if alts:
        out.append(("<h3>" + _e(_t("Alternatives")) + "</h3>") + _table(["PyTorch", _t("Variant"), _t("Why")], [(a.get("torch_version"), a.get("index"), W.reason(a)) for a in alts]))
    for x in r.get("refused") or []:
        out.append(f"<p>{_badge('warn')} {_e(_t('Refused: {text}', text=x))}</p>")
    if r.get("db_version"):
        out.append(f"<p class='muted'>{_e(_t('Compatibility data: {version}', version=r['db_version']))}</p>")
    return "".join(out)


def _steps_html(report: Report) -> str:
    out = [("<h2 id='plan'>" + _e(_t("Plan and what happened")) + "</h2>")]
    s = report.session
    if s is not None:
        out.append(_kv([(_t("Session folder"), _Raw(f"<code>{_e(s.path)}</code>")), (_t("Result"), _Raw(_run_badge(s.status))),
                        (_t("Started"), s.started), (_t("Finished"), s.finished),
                        (_t("Commands run"), f"{s.commands_run} ({s.commands_failed} failed)" if s.commands_run else None),
                        (_t("Output lines"), s.output_lines or None)]))
    plan = report.plan or {}
    for w in plan.get("warnings") or []:
        out.append(f"<p>{_badge('warn')} {_e(w)}</p>")
    if report.steps:
        out.append(_table(["#", _t("Step"), _t("Result"), _t("Time"), _t("Exit code"), _t("Message")], [
            (i, _Raw(f"<b>{_e(W.report_step(report, st, 'title'))}</b><br><code>{_e(st.id)}</code>" + (f" <span class='muted'>{_e(_t('(as administrator)'))}</span>" if st.needs_root else "")),
             _Raw(_run_badge(st.status)), _fmt(st.duration_s, "s"), st.rc if st.rc is not None else "", st.message)
            for i, st in enumerate(report.steps, 1)]))
        for i, st in enumerate(report.steps, 1):
            if not (st.why or st.commands):
                continue
            out.append(f"<div class='card'><b>{i}. {_e(W.report_step(report, st, 'title'))}</b> {_run_badge(st.status)}"
                       + (f"<p>{_e(W.report_step(report, st, 'why'))}</p>" if st.why else "")
                       + (f"<pre>{_e(chr(10).join(st.commands))}</pre>" if st.commands else "") + "</div>")
    elif s is None:
        out.append(("<p class='muted'>" + _e(_t("No plan.")) + "</p>"))
    return "".join(out)


def _log_html(ex: Any) -> str:
    lines = ex.text.split("\n") if ex.text else []
    width = len(str(ex.last_line or 1))
    body = []
    for n, line in enumerate(lines, ex.first_line):
        cell = f"<span class='ln'>{n:>{width}}  </span>{_e(line)}"
        body.append(f"<span class='focus'>{cell}</span>" if n == ex.focus_line else cell)
    where = _t("lines {first}–{last} of {total}", first=ex.first_line, last=ex.last_line, total=ex.total_lines) if ex.total_lines else ""
    full = (f"<p class='muted'>{_e(_t('The full log is in the session folder: {path}', path=''))}<code>{_e(ex.full_log)}</code></p>" if ex.full_log and ex.truncated else "")
    return (f"<h3>{_e(ex.source)} <span class='muted'>({_e(ex.reason)}{', ' + where if where else ''})</span></h3>"
            f"<pre class='log'>{chr(10).join(body)}</pre>{full}")


_SERIES_METRICS = (  # (sample key, chart title, unit, fixed y max, limit key)
    ("util_pct", _t("GPU utilization"), "%", 100.0, None),
    ("mem_used_mib", _t("Memory used"), "MiB", None, "memory_total_mib"),
    ("power_w", _t("Power draw"), "W", None, "power_limit_w"),
    ("sm_clock_mhz", _t("SM clock"), "MHz", None, "sm_clock_max_mhz"),
    ("mem_clock_mhz", _t("Memory clock"), "MHz", None, "mem_clock_max_mhz"),
    ("temp_c", _t("Temperature"), "°C", None, None),
)


def verification_charts(v: dict[str, Any], lines: bool = True) -> list[str]:
    """The SVG charts of a verification: metrics over time (`lines`; a burn-in draws its own), and
    bandwidth against ceilings."""
    charts: list[str] = []
    samples = [s for s in v.get("samples") or [] if isinstance(s, dict)]
    gpus = v.get("gpus") or []
    dev_by_index = {}
    for g in gpus:
        d = g.get("device") or {}
        dev_by_index[d.get("nvml_index", g.get("index"))] = d
    idxs = sorted({s.get("gpu_index", 0) for s in samples})
    for key, title, unit, ymax, limit_key in _SERIES_METRICS if lines else ():
        series: list[Any] = []
        for gi in idxs:
            pts = [(s.get("t_s"), s.get(key)) for s in samples if s.get("gpu_index", 0) == gi and s.get(key) is not None]
            if pts:
                series.append((f"GPU {gi}", pts))
        if not series:
            continue
        limits = []
        if limit_key:
            for gi in idxs:
                d = dev_by_index.get(gi) or {}
                lim = d.get(limit_key)
                if lim is None and limit_key == "power_limit_w":
                    lim = next((s.get("power_limit_w") for s in samples if s.get("gpu_index", 0) == gi and s.get("power_limit_w")), None)
                if lim:
                    word = {"memory_total_mib": "total", "power_limit_w": "limit"}.get(limit_key, "max")
                    limits.append((float(lim), word if len(idxs) == 1 else f"GPU {gi} {word}"))
                    if len(idxs) > 1:
                        break
        charts.append(line_chart(series, title=title, unit=unit, y_max=ymax, limits=limits, metric=key))
    for g in gpus or [{"index": v.get("bandwidth", {}).get("gpu_index", 0), "bandwidth": v.get("bandwidth") or {}}]:
        b = g.get("bandwidth") or {}
        pcie = b.get("pcie_theoretical_gbps")
        bars = [(_t("Host → GPU (pinned)"), b.get("h2d_pinned_gbps"), pcie), (_t("GPU → host (pinned)"), b.get("d2h_pinned_gbps"), pcie),
                (_t("Host → GPU (pageable)"), b.get("h2d_pageable_gbps"), pcie, False),
                (_t("GPU → host (pageable)"), b.get("d2h_pageable_gbps"), pcie, False)]
        if any(x[1] is not None for x in bars):
            charts.append(bar_chart(bars, title=f"GPU {g.get('index', 0)} PCIe copy bandwidth vs the link's ceiling", unit="GB/s", metric="pcie_gbps"))
        if b.get("d2d_gbps") is not None:
            charts.append(bar_chart([(_t("GPU memory (read + write)"), b.get("d2d_gbps"), b.get("memory_theoretical_gbps"))],
                                    title=f"GPU {g.get('index', 0)} memory bandwidth vs theoretical", unit="GB/s", metric="d2d_gbps"))
        mm = (g.get("compute") or {}).get("matmul_tflops") or {}
        if mm:
            charts.append(bar_chart([(f"matmul {k}", val, None) for k, val in mm.items()],
                                    title=f"GPU {g.get('index', 0)} matrix multiply throughput", unit="TFLOP/s", metric="matmul_tflops"))
    return charts


def _verify_html(v: dict[str, Any]) -> str:
    out = [("<h2 id='verification'>" + _e(_t("Verification")) + "</h2>")]
    said = _details(v)
    layers = v.get("layers") or []
    out.append(_kv([(_t("Recorded"), v.get("created")), (_t("Took"), _fmt(v.get("duration_s"), "s")), ("Python", v.get("python")),
                    (_t("Sustained load"), _fmt(v.get("seconds"), "s")), (_t("Cancelled"), "yes" if v.get("cancelled") else None)]))
    if layers:
        out.append(_table([_t("Layer"), _t("Result"), _t("Why"), _t("Details")], [
            (_t(str(x.get("name"))), _Raw(_badge(x.get("status"))), W.layer_reason(x), _Raw("<br>".join(_e(said.get(d, d)) for d in x.get("details") or [])))
            for x in layers]))
        checks = [c for x in layers for c in x.get("checks") or [] if c.get("status") in ("warn", "fail")]
        for c in checks:
            out.append(f"<div class='card'>{_badge(c.get('status'))} {_e(said.get(c.get('message'), c.get('message')))}"
                       + (f" <span class='muted'>(GPU {_e(c.get('gpu_index'))})</span>" if c.get("gpu_index") is not None else "")
                       + (f"<p>{_e(_t('What to do:'))}</p><pre>{_e(W.hint('check', c))}</pre>" if c.get("hint") else "") + "</div>")
    t = v.get("torch") or {}
    if t:
        out.append(("<h3>" + _e(_t("PyTorch")) + "</h3>") + _kv([(_t("Installed"), _yn(t.get("installed"))), (_t("Version"), t.get("version")), (_t("Its CUDA"), t.get("cuda")),
                                             ("cuDNN", t.get("cudnn")), (_t("GPU usable"), _yn(t.get("available"))), (_t("GPUs"), t.get("device_count")),
                                             (_t("Architectures"), " ".join(t.get("arch_list") or []) or None), (_t("Error"), t.get("error")),
                                             (_t("Fix"), _Raw(f"<code>{_e(t['fix_command'])}</code>") if t.get("fix_command") else None)]))
    for g in v.get("gpus") or []:
        d = g.get("device") or {}
        b = g.get("bandwidth") or {}
        c = g.get("compute") or {}
        out.append(f"<h3>GPU {_e(g.get('index'))}: {_e(d.get('name'))}</h3>")
        out.append(_table([_t("Measure"), _t("Result"), _t("Ceiling")], [
            (_t("Host → GPU, pinned"), _fmt(b.get("h2d_pinned_gbps"), "GB/s", 2), _fmt(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
            (_t("GPU → host, pinned"), _fmt(b.get("d2h_pinned_gbps"), "GB/s", 2), _fmt(b.get("pcie_theoretical_gbps"), "GB/s", 2)),
            (_t("Host → GPU, pageable"), _fmt(b.get("h2d_pageable_gbps"), "GB/s", 2), ""),
            (_t("GPU → host, pageable"), _fmt(b.get("d2h_pageable_gbps"), "GB/s", 2), ""),
            (_t("GPU memory copy"), _fmt(b.get("d2d_gbps"), "GB/s", 1), _fmt(b.get("memory_theoretical_gbps"), "GB/s", 1)),
        ] + [(f"Matrix multiply {k}", _fmt(val, "TFLOP/s", 1), "") for k, val in (c.get("matmul_tflops") or {}).items()]
          + ([(_t("Conv2d channels-last speed-up"), _fmt((c.get("conv2d") or {}).get("channels_last_speedup"), "×", 2), "")] if (c.get("conv2d") or {}).get("channels_last_speedup") else [])
          + ([(_t("CUDA graph speed-up"), _fmt((c.get("cuda_graph") or {}).get("graph_speedup"), "×", 2), "")] if (c.get("cuda_graph") or {}).get("graph_speedup") else [])))
        nums = g.get("numerics") or []
        if nums:
            out.append(_table([_t("Numerics"), "dtype", _t("Relative error"), _t("Tolerance"), _t("Result")], [
                (n.get("op"), n.get("dtype"), f"{n['rel_error']:.2e}" if isinstance(n.get("rel_error"), (int, float)) else "—",
                 f"{n.get('tolerance', 0):.0e}", _Raw(_badge("pass" if n.get("ok") else "fail"))) for n in nums]))
    if v.get("burn_in"):
        from app.report.burn_html import burn_html

        out.append(burn_html(v))
    charts = verification_charts(v, lines=not v.get("burn_in"))
    if charts:
        out.append(("<h3>" + _e(_t("Charts")) + "</h3>"))
        out.extend(charts)
    sm = v.get("sampler") or {}
    if sm:
        out.append(f"<p class='muted'>{_e(_t('Samples: {count} at {hz} Hz', count=sm.get('count'), hz=sm.get('rate_hz')))}"
                   + (f"; not sampled: {_e(sm.get('reason'))}" if not sm.get("ran") and sm.get("reason") else "") + "</p>")
    for e in v.get("errors") or []:
        out.append(f"<pre>{_e(e)}</pre>")
    return "".join(out)


def _diag_html(d: dict[str, Any]) -> str:
    out = [("<h2 id='diagnosis'>" + _e(_t("Diagnosis")) + "</h2>")]
    ms = d.get("matches") or []
    if not ms:
        out.append(f"<p>{_e(d.get('message') or _t('No known problem matched.'))}</p>")
    for i, m in enumerate(ms):
        conf = m.get("confidence")
        out.append("<div class='card'>" + (f"<b>{_e(_t('Most likely') if i == 0 else _t('Also possible'))}:</b> " if len(ms) > 1 else "")
                   + f"<b>{_e(W.match(m, 'root_cause'))}</b> <span class='muted'>({_e(m.get('category'))}"
                   + (f", {conf * 100:.0f}% sure" if isinstance(conf, (int, float)) else "") + ")</span>"
                   + (f"<pre>{_e(m.get('excerpt'))}</pre>" if m.get("excerpt") else "")
                   + f"<p><b>{_e(_t('Fix'))}:</b> {_e(W.match(m, 'fix'))}</p>")
        ev = m.get("evidence") or []
        if ev:
            out.append("<ul>" + "".join(f"<li>{'✔' if e.get('supports', True) else '✘'} {_e(W.evidence(e))}</li>" for e in ev) + "</ul>")
        for fs in m.get("fix_steps") or []:
            cmds = "\n".join(_argv(a) for a in fs.get("argv") or [])
            out.append(f"<p>{_e(fs.get('title'))}: {_e(fs.get('why'))}</p>" + (f"<pre>{_e(cmds)}</pre>" if cmds else ""))
        if m.get("commands"):
            out.append(f"<p class='muted'>{_e(_t('To see the problem yourself:'))}</p><pre>" + _e("\n".join(_argv(a) for a in m["commands"])) + "</pre>")
        out.append("</div>")
    oom = d.get("oom") or {}
    for v in oom.get("verdicts") or []:
        out.append(f"<div class='card'>{_e(_t('Out of memory:'))} <b>{_e(W.oom_verdict(v, 'root_cause'))}</b><p>{_e(W.oom_verdict(v, 'fix'))}</p></div>")
    ut = d.get("utilization") or {}
    if ut.get("dimensions"):
        out.append(("<h3>" + _e(_t("Low GPU utilization")) + "</h3>") + (f"<p>{_e(ut.get('summary'))}</p>" if ut.get("summary") else "")
                   + _table([_t("Cause"), _t("Verdict"), _t("What it means"), _t("Fix")], [(x.get("name", "").replace("_", " "), x.get("status"), x.get("message"), x.get("fix"))
                                                                         for x in ut["dimensions"]]))
    return "".join(out)


def _snapshot_html(s: dict[str, Any]) -> str:
    n = {k: len(s.get(k) or {}) for k in ("files", "dirs", "links", "env", "commands")}
    return ("<h2 id='snapshot'>Snapshot</h2><p>This report carries the machine's "
            + ("redacted " if s.get("redacted") else "") + "snapshot (format "
            + _e(s.get("format")) + f", recorded {_e(s.get('created'))}): {n['files']} files, {n['commands']} command outputs, "
            f"{n['env']} environment variables{', NVML answers' if s.get('nvml') else ''}. Open this file in GPU Setup Wizard to walk "
            "through the machine page by page (read-only; nothing runs).</p>"
            + (_table([_t("Command"), _t("Exit code")], [(k, (v or {}).get("rc")) for k, v in sorted((s.get("commands") or {}).items())]) if s.get("commands") else ""))


def embed_json(data: Any) -> str:
    """JSON safe inside an HTML <script type='application/json'> block."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _details(v: dict) -> dict:
    """English detail and check lines of a verification → the report's language."""
    if LANG.get() == "en":
        return {}
    try:
        from app.verify.model import Verification
        from app.verify.verdicts import details_in

        return details_in(Verification.from_json(v), LANG.get())
    except Exception:  # noqa: BLE001
        return {}


def render_html(report: Report) -> str:
    token = LANG.set(getattr(report, "lang", "en") or "en")
    try:
        return _render(report)
    finally:
        LANG.reset(token)


def _render(report: Report) -> str:
    toc = [("summary", _t("Summary"))]
    parts = []
    red = report.redaction
    if red.redacted:
        counts = ", ".join(f"{n} {k.replace('-', ' ')}{'s' if n != 1 else ''}" for k, n in red.placeholders.items()) or _t("nothing was found to replace")
        said = _e(_t("Private values were replaced by placeholders such as `<user-1>` ({counts}).", counts=counts))
        banner = f"<div class='banner redacted'>{re.sub('`([^`]*)`', lambda m: '<code>' + m.group(1) + '</code>', said)}</div>"
    else:
        banner = f"<div class='banner raw'>⚠ {escape(red.note or 'Not redacted.')}</div>"
    head_items = "".join(f"<li>{_e(x)}</li>" for x in report.headline) or f"<li>{_e(_t('No results yet.'))}</li>"
    parts.append(f"<section id='summary'><div class='overall'>{_badge(report.overall, big=True)}<ul>{head_items}</ul></div>"
                 + "".join(f"<p class='muted'>{_e(n)}</p>" for n in report.notes) + "</section>")
    if report.facts:
        toc.append(("machine", _t("Machine")))
        parts.append(_facts_html(report.facts))
    if report.recommendation:
        toc.append(("recommendation", _t("Recommendation")))
        parts.append(_rec_html(report.recommendation))
    if report.steps or report.session or report.plan:
        toc.append(("plan", _t("Plan")))
        parts.append(_steps_html(report))
    if report.logs:
        toc.append(("log", _t("Log")))
        parts.append(("<h2 id='log'>" + _e(_t("Log excerpt")) + "</h2>") + "".join(_log_html(x) for x in report.logs))
    if report.verification:
        toc.append(("verification", _t("Verification")))
        if report.verification.get("burn_in"):
            toc.append(("burn-in", _t("Burn-in")))
        parts.append(_verify_html(report.verification))
    if report.diagnosis:
        toc.append(("diagnosis", _t("Diagnosis")))
        parts.append(_diag_html(report.diagnosis))
    if report.snapshot:
        toc.append(("snapshot", _t("Snapshot")))
        parts.append(_snapshot_html(report.snapshot))
    nav = "<nav class='toc'>" + "".join(f"<a href='#{a}'>{escape(b)}</a>" for a, b in toc) + "</nav>"
    html_lang = "zh-CN" if LANG.get() == "zh_CN" else "en"
    return (f"<!DOCTYPE html>\n<html lang='{html_lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
            f"<meta name='generator' content='{_e(report.generator)}'><link rel='icon' href='data:,'>"
            f"<title>{_e(_t(report.title))}{' — ' + _e(report.machine) if report.machine else ''}</title><style>{CSS}</style></head>"
            f"<body><main><header><h1>{_e(_t(report.title))}</h1><p class='sub'>{_e(report.machine)}</p>"
            f"<p class='sub'>{_e(_t('Created {created} by {generator}', created=report.created, generator=report.generator))}</p>{banner}{nav}</header>"
            + "".join(parts)
            + f"<footer>{_e(report.format)} · {_e(report.generator)} · {_e(_t('This file is self-contained: it loads nothing from the network.'))}</footer>"
            f"</main><script type='application/json' id='{EMBED_ID}'>{embed_json(report.to_json())}</script></body></html>\n")
