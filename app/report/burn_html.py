"""The report's burn-in: every GPU side by side (its verdict in words, its figures beside its ceilings),
the links between GPUs, and the charts: clocks, temperature against the GPU's slowdown and shutdown
thresholds, power against its limit, utilization, TFLOP/s per precision and memory bandwidth against
the datasheet peak, each with the phases shaded and the faults marked on the time axis.

Drawn from the Verification's JSON (`burn_in`, `samples`) only, so a recorded run renders the same
pictures anywhere; the window draws the same series (ui/widgets/charts.py)."""
from __future__ import annotations

from html import escape
from typing import Any, Optional

from app.report import words as W
from app.report.charts import line_chart
from app.report.words import _t




def _shared_limits(peaks: dict) -> list:
    """One dashed limit per peak figure: precisions held to the same datasheet peak (bf16 and fp16) share
    its line and its label, so two labels never overlap."""
    alike: dict = {}
    for k, p in peaks.items():
        if p:
            alike.setdefault(p, []).append(k)
    return [(p, f"{', '.join(ks)} {_t('datasheet')}") for p, ks in sorted(alike.items())]

def _e(v: Any) -> str:
    return escape("" if v is None else str(v))


def _status(s: Any) -> str:
    """pass/warn/fail/skip in the report's language (the command line's words for them)."""
    from app import messages

    return messages.render("cli", f"verify_mark_{s}", {}, W.LANG.get(), fallback=str(s)) if s in ("pass", "warn", "fail", "skip") else str(s)


def _num(v: Any, unit: str = "", nd: int = 1) -> str:
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return "—"
    return f"{v:,.{nd}f}" + (f" {unit}" if unit else "")


def severity(e: dict[str, Any]) -> str:
    """fail for a fault (wrong results, uncorrectable errors, an Xid no program causes), warn else."""
    from app.verify.burn_verdicts import event_severity

    return event_severity(str(e.get("kind")), e.get("value"))


def marks(b: dict[str, Any], gpu: Optional[int] = None) -> list[tuple[float, str, str]]:
    """(t, label, severity) of every event (of one GPU, or all) for the time axis."""
    out = []
    for e in b.get("events") or []:
        if gpu is not None and e.get("gpu_index") not in (gpu, None):
            continue
        label = f"GPU {e.get('gpu_index')}: {e.get('kind')}" + (f" {int(e['value'])}" if e.get("kind") == "xid" and e.get("value") else "") \
            + (f" ({e.get('detail')})" if e.get("detail") else "")
        out.append((float(e.get("t_s") or 0.0), label, severity(e)))
    return out


def _window(b: dict[str, Any]) -> tuple[float, float]:
    ph = [p for p in b.get("phases") or [] if isinstance(p, dict)]
    if not ph:
        return (0.0, 1.0)
    return (min(float(p["t0_s"]) for p in ph), max(float(p["t1_s"]) for p in ph))


def _sample_series(samples: list[dict[str, Any]], key: str, win: tuple[float, float], scale: float = 1.0) -> list:
    out = []
    for gi in sorted({s.get("gpu_index", 0) for s in samples}):
        pts = [(s["t_s"], s[key] * scale) for s in samples if s.get("gpu_index", 0) == gi and s.get(key) is not None
               and win[0] <= s.get("t_s", -1) <= win[1]]
        if pts:
            out.append((f"GPU {gi}", pts))
    return out


def _rate_series(b: dict[str, Any], unit: str) -> list:
    by: dict[tuple[int, str], list] = {}
    for r in b.get("rates") or []:
        if r.get("unit") == unit:
            name = str(r.get("series") or str(r.get("phase") or "").replace("matmul_", ""))
            by.setdefault((int(r.get("gpu_index", 0)), name), []).append((r["t_s"], r["value"]))
    many = len({g for g, _s in by}) > 1
    return [((f"GPU {g} " if many else "") + s, pts) for (g, s), pts in sorted(by.items())]


def burn_charts(v: dict[str, Any]) -> list[str]:
    b = v.get("burn_in") or {}
    samples = [s for s in v.get("samples") or [] if isinstance(s, dict) and isinstance(s.get("t_s"), (int, float))]
    win = _window(b)
    spans = [(p["phase"], float(p["t0_s"]), float(p["t1_s"])) for p in b.get("phases") or [] if isinstance(p, dict)]
    mk = marks(b)
    g0 = (b.get("gpus") or [{}])[0]
    common: dict[str, Any] = dict(spans=spans, marks=mk, t_range=win)
    temp_limits = [(g0.get("temp_slowdown_c"), _t("slowdown")), (g0.get("temp_shutdown_c"), _t("shutdown"))]
    peaks = g0.get("peak_tflops") or {}
    tf = _rate_series(b, "tflops")
    shown = {lab.split()[-1] for lab, _p in tf}
    charts = [] if not _sample_series(samples, "util_pct", win) and not _sample_series(samples, "temp_c", win) else [
        line_chart(_sample_series(samples, "sm_clock_mhz", win), title=_t("SM clock"), unit="MHz", metric="burn_clock",
                   limits=[(g0.get("sm_clock_max_mhz"), _t("max"))], **common),
        line_chart(_sample_series(samples, "temp_c", win), title=_t("Temperature"), unit="°C", metric="burn_temp",
                   limits=[x for x in temp_limits if x[0]], **common),
        line_chart(_sample_series(samples, "power_w", win), title=_t("Power draw"), unit="W", metric="burn_power",
                   limits=[(g0.get("power_limit_w"), _t("limit"))], **common),
        line_chart(_sample_series(samples, "util_pct", win), title=_t("GPU utilization"), unit="%", y_max=100.0,
                   metric="burn_util", **common)]
    charts += [
        line_chart(tf, title=_t("Matrix products per precision"), unit="TFLOP/s", metric="burn_tflops",
                   limits=_shared_limits({k: p for k, p in peaks.items() if k in shown}), **common),
        line_chart(_rate_series(b, "gbps"), title=_t("Memory bandwidth"), unit="GB/s", metric="burn_membw",
                   limits=[(g0.get("peak_mem_gbps"), _t("datasheet"))], **common),
    ]
    return charts


def _figures(g: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(measure, result, ceiling) of one GPU."""
    rows = [(_t("SM clock under load (median)"), _num(g.get("sm_clock_median_mhz"), "MHz", 0), _num(g.get("sm_clock_max_mhz"), "MHz", 0)),
            (_t("Power (median / most)"), f"{_num(g.get('power_median_w'), '', 0)} / {_num(g.get('power_max_w'), 'W', 0)}",
             _num(g.get("power_limit_w"), "W", 0)),
            (_t("Temperature (most)"), _num(g.get("temp_max_c"), "°C", 0),
             f"{_num(g.get('temp_slowdown_c'), '', 0)} / {_num(g.get('temp_shutdown_c'), '°C', 0)}")]
    peaks = g.get("peak_tflops") or {}
    for dt, rate in (g.get("tflops") or {}).items():
        rows.append((f"{_t('Matrix products')} {dt}", _num(rate, "TFLOP/s"), _num(peaks.get(dt), "TFLOP/s")))
    rows.append((_t("Memory, triad"), _num(g.get("mem_gbps"), "GB/s", 0), _num(g.get("peak_mem_gbps"), "GB/s", 0)))
    if g.get("mem_copy_gbps"):
        rows.append((_t("Memory, device copy"), _num(g.get("mem_copy_gbps"), "GB/s", 0), _num(g.get("peak_mem_gbps"), "GB/s", 0)))
    mt = g.get("memtest_bytes")
    rows.append((_t("Memory test"), f"{_num((mt or 0) / (1 << 30), 'GiB', 0)} × {g.get('memtest_passes', 0)}, "
                 f"{g.get('memtest_errors', 0)} {_t('wrong')}", _num((g.get("memtest_share") or 0) * 100, "%", 0)))
    rows.append((_t("Results checked"), f"{g.get('checks', 0):,}, {g.get('mismatches', 0)} {_t('wrong')}", ""))
    risen = [(k, a, z) for k, (a, z) in sorted((g.get("counters") or {}).items()) if isinstance(a, int) and isinstance(z, int) and z > a]
    for k, a, z in risen:
        rows.append((_t(COUNTER_LABELS.get(k, k)), f"+{z - a:,}", f"{_t('at start')} {a:,}"))
    if g.get("counters") and not risen:
        rows.append((_t("ECC, row remapping, PCIe replays"), _t("no rise"), ""))
    return rows


COUNTER_LABELS = {"ecc_corrected": "Corrected ECC errors", "ecc_uncorrected": "Uncorrectable ECC errors",
                  "retired_pages": "Retired pages", "retired_pending": "Page retirement pending",
                  "remapped_cor": "Rows remapped (corrected errors)", "remapped_unc": "Rows remapped (uncorrected errors)",
                  "remap_pending": "Row remapping pending", "remap_failure": "Row remapping failed", "pcie_replay": "PCIe replays"}


def _gpu_card(g: dict[str, Any], checks: list[dict[str, Any]]) -> str:
    from app.verify.model import worst

    status = worst(c.get("status") for c in checks)
    body = "".join(f"<li><span class='badge {_e(c.get('status'))}'>{_e(_status(c.get('status')))}</span> {_e(W.say('check', c))}</li>"
                   for c in checks)
    rows = "".join(f"<tr><td>{_e(a)}</td><td>{_e(b)}</td><td>{_e(c)}</td></tr>" for a, b, c in _figures(g))
    return (f"<div class='card burn-gpu' data-gpu='{_e(g.get('index'))}' data-status='{_e(status)}'>"
            f"<h3>GPU {_e(g.get('index'))}: {_e(g.get('name'))} <span class='badge {_e(status)}'>{_e(_status(status))}</span></h3>"
            f"<ul>{body}</ul><table><thead><tr><th>{_e(_t('Measure'))}</th><th>{_e(_t('Result'))}</th><th>{_e(_t('Ceiling'))}</th>"
            f"</tr></thead><tbody>{rows}</tbody></table></div>")


def _links_html(b: dict[str, Any], layers: list[dict[str, Any]]) -> str:
    pairs = b.get("p2p") or []
    ar = b.get("allreduce") or {}
    if not pairs and not ar:
        return ""
    rows = "".join(f"<tr><td>{_e(p.get('src'))} → {_e(p.get('dst'))}</td><td>{_e(p.get('link') or '—')}</td>"
                   f"<td>{_num(p.get('gbps'), 'GB/s')}</td><td>{_num(p.get('bidir_gbps'), 'GB/s')}</td>"
                   f"<td>{_num(p.get('latency_us'), 'µs')}</td><td>{_num(p.get('ceiling_gbps'), 'GB/s')}</td></tr>" for p in pairs)
    inter = next((x for x in layers if x.get("name") == "interconnect"), {})
    said = "".join(f"<li>{_e(W.say('check', c))}</li>" for c in inter.get("checks") or [])
    head = "".join(f"<th>{_e(h)}</th>" for h in (_t("GPUs"), _t("Link"), _t("One way"), _t("Both ways"), _t("Latency"), _t("Ceiling")))
    return (f"<h3>{_e(_t('Between the GPUs'))}</h3><ul>{said}</ul>"
            + (f"<table class='burn-p2p'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>" if rows else ""))


def burn_html(v: dict[str, Any]) -> str:
    b = v.get("burn_in")
    if not isinstance(b, dict):
        return ""
    layers = [x for x in v.get("layers") or [] if isinstance(x, dict)]
    layer = next((x for x in layers if x.get("name") == "burnin"), {})
    checks = [c for c in layer.get("checks") or [] if isinstance(c, dict)]
    head = [(_t("Asked for"), _num(b.get("seconds"), "s", 0)), (_t("Ran"), _num(b.get("ran_s"), "s", 0)),
            (_t("Precisions"), ", ".join(b.get("dtypes") or ()) or "—"),
            (_t("Xid events watched through"), b.get("xid_source") or f"— ({b.get('xid_note') or ''})")]
    if b.get("cancelled"):
        head.append((_t("Cancelled"), _t("yes")))
    kv = "".join(f"<tr><th>{_e(k)}</th><td>{_e(x)}</td></tr>" for k, x in head)
    cards = "".join(_gpu_card(g, [c for c in checks if c.get("gpu_index") == g.get("index")]) for g in b.get("gpus") or [])
    general = "".join(f"<p>{_e(W.say('check', c))}</p>" for c in checks if c.get("gpu_index") is None)
    drawn = burn_charts(v)
    charts = "".join(drawn) + ("" if len(drawn) > 2 else f"<p class='muted'>{_e(_t('No NVML samples: clocks, temperature, power and utilization were not recorded.'))}</p>")
    return (f"<h2 id='burn-in'>{_e(_t('Burn-in'))}</h2><table class='kv'>{kv}</table>{general}"
            f"<div class='{'grid2 ' if len(b.get('gpus') or []) > 1 else ''}burn-gpus'>{cards}</div>{_links_html(b, layers)}"
            f"<h3>{_e(_t('Burn-in charts'))}</h3>{charts}")
