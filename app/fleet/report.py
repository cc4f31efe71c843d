"""The fleet report: one self-contained HTML page (and its JSON) with a row per host.

Reads a fleet folder: `<host>.json` snapshots (fleet detect / verify), `<host>.verify.json`
verifications and `<host>.report.html` per-host reports (fleet verify), `fleet-plan.json`
(fleet plan) and `fleet-run.json` (fleet run). Each row: GPUs, driver, PyTorch, plan status,
the four verify verdicts, host→GPU bandwidth and matmul TFLOP/s, and a link to the host's own
report (written beside it from the snapshot and verification when fleet verify did not bring one).

Hosts that lag their peers (same GPU model) are flagged: a PCIe link narrower or slower than the
best peer's, or bandwidth / TFLOP/s at least 20 % under the peers' median (with at least 3 hosts of
that GPU measured). Sentences come from the message catalogue (report.fleet_*) in English or
Simplified Chinese; the page reuses app/report's styles and escaping, and what it shows from the
hosts is redacted by app/report/redact (inventory names stay: they are the admin's own labels).
"""
from __future__ import annotations

import json
import os
import statistics
import time
from html import escape
from pathlib import Path
from typing import Any, Optional

from app import fileio

LAG_SHARE = 0.20  # at least this far under the peers' median is lagging
MIN_PEERS = 3  # hosts of one GPU model measured before a median means something
SKIP_NAMES = ("fleet-plan.json", "fleet-run.json", "fleet-check.json", "fleet.json")


def _say(code: str, lang: str, **params: Any) -> str:
    from app.messages import render

    return render("report", code, {k: v for k, v in params.items()}, lang)


def _count(code: str, n: int, lang: str) -> str:
    """"1 host" / "3 hosts": the `_one` sentence for exactly one, where the language has it (zh_CN says both alike)."""
    return _say(code + "_one", lang, n=n) if n == 1 else _say(code, lang, n=n)


def _num(v: Any, digits: int = 1) -> str:
    if v is None:
        return "—"
    return f"{v:.{digits}f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _read(p: Path) -> Optional[Any]:
    try:
        return fileio.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def host_names(folder: Path) -> list[str]:
    out = []
    for p in sorted(folder.glob("*.json")):
        n = p.name
        if n in SKIP_NAMES or n.endswith(".verify.json") or n.endswith(".tmp"):
            continue
        out.append(n[: -len(".json")])
    return out


def _facts_row(snapshot: Path) -> dict[str, Any]:
    from app.detect import detect
    from app.system import SnapshotError, SnapshotSystem

    try:
        facts = detect(SnapshotSystem.load(snapshot))
    except (SnapshotError, ValueError, OSError) as e:
        return {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}
    gpus = [{"name": g.name, "memory_mib": g.memory_total_mib, "gen": g.pcie_gen_current, "gen_max": g.pcie_gen_max,
             "width": g.pcie_width_current, "width_max": g.pcie_width_max} for g in facts.gpus]
    py = facts.python
    return {"os": facts.os.pretty_name or facts.os.platform, "platform": "wsl2" if facts.os.wsl == 2 else facts.os.platform,
            "driver": facts.driver.version, "driver_state": facts.driver.state, "gpus": gpus,
            "torch": (py.torch.version if py and py.torch else None)}


def _verify_row(path: Path) -> Optional[dict[str, Any]]:
    data = _read(path)
    if not isinstance(data, dict):
        return None
    layers = {la.get("name"): la.get("status") for la in data.get("layers") or () if isinstance(la, dict)}
    gpus = data.get("gpus") or []
    h2d = [((g.get("bandwidth") or {}).get("h2d_pinned_gbps")) for g in gpus]
    tf = []
    for g in gpus:
        m = (g.get("compute") or {}).get("matmul_tflops") or {}
        tf.append(max(m.values()) if m else None)
    if not gpus:
        b = data.get("bandwidth") or {}
        h2d = [b.get("h2d_pinned_gbps")]
        m = (data.get("compute") or {}).get("matmul_tflops") or {}
        tf = [max(m.values()) if m else None]
    links = [((g.get("device") or {}).get("pcie_gen_current"), (g.get("device") or {}).get("pcie_width_current"),
              (g.get("device") or {}).get("pcie_gen_max"), (g.get("device") or {}).get("pcie_width_max")) for g in gpus]
    t = data.get("torch") or {}
    statuses = [s for s in layers.values() if s]
    order = {"fail": 3, "warn": 2, "pass": 1, "skip": 0}
    overall = max(statuses, key=lambda s: order.get(s, 0)) if statuses else "skip"
    vals_h2d = [x for x in h2d if isinstance(x, (int, float))]
    vals_tf = [x for x in tf if isinstance(x, (int, float))]
    return {"status": overall, "layers": layers,
            "h2d_gbps": min(vals_h2d) if vals_h2d else None, "tflops": min(vals_tf) if vals_tf else None,
            "tflops_dtype": _best_dtype(gpus, data), "links": links,
            "torch": t.get("version"), "torch_cuda": t.get("cuda"), "created": data.get("created")}


def _best_dtype(gpus: list[Any], data: dict[str, Any]) -> Optional[str]:
    m = ((gpus[0].get("compute") if gpus else data.get("compute")) or {}).get("matmul_tflops") or {}
    rates = {k: v for k, v in m.items() if isinstance(v, (int, float))} if isinstance(m, dict) else {}
    return max(rates, key=lambda k: rates[k]) if rates else None


def _plan_status(host: str, plan: dict, run: dict, lang: str) -> tuple[str, str]:
    """(status word for CSS, sentence)."""
    r = (run.get("hosts") or {}).get(host)
    p = next((h for h in plan.get("hosts") or () if h.get("host") == host), None)
    if r:
        st = r.get("status")
        if st == "failed":
            return "fail", _say("fleet_run_failed", lang)
        if st == "unreachable":
            return "fail", _say("fleet_run_unreachable", lang)
        if st == "changed":
            return "pass", _say("fleet_run_changed", lang, changed=r.get("changed", 0))
        return "pass", _say("fleet_run_ok", lang)
    if p:
        if p.get("status") == "error":
            return "fail", _say("fleet_plan_error", lang, error=p.get("error", ""))
        work = [s for s in p.get("steps") or () if s.get("kind") != "verify"]
        if not work:
            return "pass", _say("fleet_plan_nothing", lang)
        return "info", _say("fleet_plan_changes", lang, steps=len(work))
    return "unknown", _say("fleet_plan_none", lang)


def build_fleet_report(folder: str | os.PathLike, *, host_reports: bool = True, lang: Optional[str] = None) -> dict[str, Any]:
    from app.messages import resolve_lang
    from app.report.redact import Redactor

    lang = resolve_lang(lang)
    d = Path(folder)
    plan = _read(d / "fleet-plan.json") or {}
    run = _read(d / "fleet-run.json") or {}
    rows: list[dict[str, Any]] = []
    red = Redactor()
    for host in host_names(d):
        facts = _facts_row(d / f"{host}.json")
        ver = _verify_row(d / f"{host}.verify.json")
        pst, ptext = _plan_status(host, plan, run, lang)
        report = d / f"{host}.report.html"
        if host_reports and not report.is_file():
            _write_host_report(d, host)
        row = {"host": host, **{k: v for k, v in facts.items()}, "verification": ver, "plan_status": pst, "plan": ptext,
               "report": report.name if report.is_file() else None, "flags": []}
        if ver and ver.get("torch"):
            row["torch"] = ver["torch"]
        rows.append(row)
    _flag_laggards(rows, lang)
    for row in rows:  # redacted like every report (host labels are the admin's own and stay)
        for k in ("os", "error"):
            if isinstance(row.get(k), str):
                row[k] = red.text(row[k])
    return {"format": "gpu-wizard-fleet-report/1", "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "lang": lang,
            "folder": str(d.resolve()), "hosts": rows,
            "summary": {"hosts": len(rows), "gpus": sum(len(r.get("gpus") or ()) for r in rows),
                        "verified": sum(1 for r in rows if r.get("verification")),
                        "failed": sum(1 for r in rows if r["plan_status"] == "fail" or (r.get("verification") or {}).get("status") == "fail"),
                        "lagging": sum(1 for r in rows if r["flags"])}}


def _write_host_report(d: Path, host: str) -> None:
    """The host's own report from its snapshot (and verification), when fleet verify brought none."""
    try:
        from app.fleet.host import host_verify

        v = d / f"{host}.verify.json"
        tmp = d / f".{host}.tmp"
        host_verify(str(tmp), snapshot=str(d / f"{host}.json"), verification=str(v) if v.is_file() else None)
        os.replace(str(tmp) + ".report.html", d / f"{host}.report.html")
        for suffix in (".json", ".verify.json"):
            try:
                os.unlink(str(tmp) + suffix)
            except FileNotFoundError:
                pass
    except Exception:  # a missing per-host report leaves its link out; the fleet page still comes
        return


def _gpu_key(row: dict[str, Any]) -> Optional[str]:
    gpus = row.get("gpus") or []
    return gpus[0]["name"] if gpus else None


def _link_of(row: dict[str, Any]) -> tuple[Optional[int], Optional[int]]:
    """(gen, width) of the host's slowest link: measured under verify when there is one, else from detection."""
    ver = row.get("verification") or {}
    links = [(g, w) for g, w, _gm, _wm in ver.get("links") or () if w]
    if not links:
        links = [(g.get("gen"), g.get("width")) for g in row.get("gpus") or () if g.get("width")]
    if not links:
        return None, None
    return min(links, key=lambda x: ((x[1] or 0), (x[0] or 0)))


def _flag_laggards(rows: list[dict[str, Any]], lang: str) -> None:
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        k = _gpu_key(r)
        if k:
            by.setdefault(k, []).append(r)
    for gpu, peers in by.items():
        widths = [(_link_of(r)[1] or 0) for r in peers]
        gens = [(_link_of(r)[0] or 0) for r in peers]
        best_w = max(widths) if widths else 0
        best_g = max(gens) if gens else 0
        for metric, code, _unit in (("h2d_gbps", "fleet_lag_bandwidth", "GB/s"), ("tflops", "fleet_lag_tflops", "TFLOP/s")):
            vals = [(r, float(v)) for r in peers if isinstance(v := (r.get("verification") or {}).get(metric), (int, float))]
            if len(vals) < MIN_PEERS:
                continue
            med = statistics.median(v for _r, v in vals)
            for r, v in vals:
                if med > 0 and v <= med * (1 - LAG_SHARE):
                    r["flags"].append({"code": code, "text": _say(code, lang, value=_num(float(v)), median=_num(float(med)),
                                                                 under=f"{(1 - v / med) * 100:.0f}%", peers=len(vals), gpu=gpu)})
        if len(peers) < 2:
            continue
        for r in peers:
            g, w = _link_of(r)
            if w and w < best_w:
                r["flags"].append({"code": "fleet_lag_link", "text": _say("fleet_lag_link", lang, link=f"x{w}", peer_link=f"x{best_w}", gpu=gpu)})
            elif g and g < best_g:
                r["flags"].append({"code": "fleet_lag_link_gen", "text": _say("fleet_lag_link_gen", lang, gen=g, peer_gen=best_g, gpu=gpu)})


# ---------------------------------------------------------------------------------------
# HTML (app/report's styles and escaping; no template engine)

MARK = {"pass": "✓", "warn": "!", "fail": "✗", "skip": "–"}

FLEET_CSS = """
main{max-width:1500px}
.wide{overflow-x:auto}
.badge.v{padding:1px 7px;margin-right:3px;font-size:12px}
td.st-pass{color:var(--pass)}td.st-fail{color:var(--fail);font-weight:600}td.st-info{color:var(--info)}td.st-unknown{color:var(--muted)}
table.fleet{width:100%}
table.fleet td,table.fleet th{font-size:13px;white-space:nowrap;padding:6px 6px}
table.fleet th{white-space:normal;vertical-align:bottom;line-height:1.25}
table.fleet td.gpu{white-space:normal;min-width:130px}
table.fleet tr.flags td{white-space:normal;border-top:0;padding-top:0}
table.fleet td.st-pass,table.fleet td.st-fail,table.fleet td.st-info,table.fleet td.st-unknown{white-space:normal;min-width:120px}
tr.lag td{background:#fffbeb}
.num{text-align:right;font-variant-numeric:tabular-nums}
.v{display:inline-block;min-width:0;margin-right:2px}
"""


def render_fleet_html(report: dict[str, Any], link_base: str = "") -> str:
    from app.report.render_html import CSS

    lang = report.get("lang", "en")
    s = report["summary"]
    cols = ["host", "gpus", "driver", "pytorch", "plan", "verdicts", "bandwidth", "tflops", "report"]
    head = "".join(f"<th>{escape(_say('fleet_col_' + c, lang))}</th>" for c in cols)
    body: list[str] = []
    open_word = escape(_say("fleet_open_host", lang))
    not_verified = escape(_say("fleet_not_verified", lang))
    flag_word = escape(_say("fleet_col_flags", lang))
    for r in report["hosts"]:
        ver = r.get("verification") or {}
        gpus = r.get("gpus") or []
        names: dict[str, int] = {}
        for g in gpus:
            names[g["name"]] = names.get(g["name"], 0) + 1
        gpu_txt = ", ".join(f"{n}× {k}" if n > 1 else k for k, n in names.items()) or "—"
        g, w = _link_of(r)
        if w:
            gpu_txt += f" · PCIe {g or '?'} x{w}"
        driver = r.get("driver") or "—"
        if r.get("platform") == "wsl2":
            driver += " (WSL2)"
        verdicts = "".join(f"<span class='badge v {escape(v or 'unknown')}' title='{escape(k)}: {escape(v or '')}'>"
                           f"{MARK.get(v or '', '?')}</span>" for k, v in (ver.get("layers") or {}).items()) \
            or f"<span class='muted'>{not_verified}</span>"
        flags = "<br>".join(escape(f["text"]) for f in r["flags"])
        link = f"<a href='{escape(link_base + r['report'])}'>{open_word}</a>" if r.get("report") else "—"
        tf = _num(ver.get("tflops")) + (f" <span class='muted'>{escape(ver.get('tflops_dtype') or '')}</span>" if ver.get("tflops") else "")
        lag = " class='lag'" if r["flags"] else ""
        body.append(
            f"<tr{lag} id='h-{escape(r['host'])}'><td><b>{escape(r['host'])}</b></td>"
            f"<td class='gpu'>{escape(gpu_txt)}</td><td>{escape(driver)}</td><td>{escape(r.get('torch') or '—')}</td>"
            f"<td class='st-{escape(r['plan_status'])}'>{escape(r['plan'])}</td><td>{verdicts}</td>"
            f"<td class='num'>{_num(ver.get('h2d_gbps'))}</td><td class='num'>{tf}</td><td>{link}</td></tr>")
        if r["flags"]:  # what lags, in words, on a line of its own under the host
            body.append(f"<tr class='lag flags'><td class='muted'>{flag_word}</td><td colspan='{len(cols) - 1}'>{flags}</td></tr>")
    title = _say("fleet_title", lang, hosts=_count("fleet_n_hosts", s["hosts"], lang))
    summary = _say("fleet_summary", lang, hosts=_count("fleet_n_hosts", s["hosts"], lang), gpus=_count("fleet_n_gpus", s["gpus"], lang), verified=s["verified"], lagging=s["lagging"], failed=s["failed"])
    embed = json.dumps(report, ensure_ascii=False).replace("</", "<\\/")
    return (f"<!DOCTYPE html><html lang='{'zh-CN' if lang == 'zh_CN' else 'en'}'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{escape(title)}</title>"
            f"<style>{CSS}{FLEET_CSS}</style></head><body><main><h1>{escape(title)}</h1>"
            f"<p class='sub'>{escape(summary)}</p><p class='muted'>{escape(_say('fleet_lag_rule', lang, share='20%', peers=MIN_PEERS))}</p>"
            f"<div class='wide'><table class='fleet'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
            f"<footer>{escape(report.get('created', ''))} · gpu-wizard fleet report</footer></main>"
            f"<script type='application/json' id='gpu-wizard-fleet-report'>{embed}</script></body></html>\n")


def write_fleet_report(report: dict[str, Any], out: str | os.PathLike) -> tuple[str, str]:
    """Write the page and its JSON beside it; links to host reports relative to the page."""
    out = Path(out).resolve()
    folder = Path(report["folder"])
    rel = os.path.relpath(folder, out.parent)
    base = "" if rel == "." else rel.replace(os.sep, "/") + "/"
    report = dict(report, host_reports=base or ".")  # where the host reports are, from the page: the window opens them
    html = render_fleet_html(report, link_base=base)
    fileio.write_atomic(out, html)
    jpath = out.with_suffix(".json")
    fileio.write_json_atomic(jpath, report)
    return str(out), str(jpath)


# ---------------------------------------------------------------------------------------
# reading a fleet report back (the window opens fleet.html or fleet.json)

FLEET_FORMAT = "gpu-wizard-fleet-report/"
_EMBED_ID = "id='gpu-wizard-fleet-report'>"


class FleetReportError(ValueError):
    """A fleet report that cannot be read, said in one line."""


def is_fleet_report(path: str | os.PathLike) -> bool:
    """fleet.json (its format) or fleet.html (the JSON it embeds)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8-sig", errors="replace")
            if FLEET_FORMAT in head:
                return True
            if not head.lstrip().startswith("<"):
                return False
            return _EMBED_ID.encode() in head.encode() + f.read(64 << 20)
    except OSError:
        return False


def load_fleet_report(path: str | os.PathLike) -> dict[str, Any]:
    """The fleet report a page or its JSON holds; each host's report resolved to a file path
    (`report_path`, None when it is not there)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise FleetReportError(f"cannot read {p.name}: {getattr(e, 'strerror', None) or e}") from None
    if text.lstrip().startswith("<"):
        i = text.find(_EMBED_ID)
        j = text.find("</script>", i)
        if i < 0 or j < 0:
            raise FleetReportError(f"{p.name} is not a gpu-wizard fleet report")
        text = text[i + len(_EMBED_ID):j].replace("<\\/", "</")
    try:
        data = fileio.loads(text)
    except ValueError:
        raise FleetReportError(f"{p.name} is not a gpu-wizard fleet report (its JSON does not read)") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith(FLEET_FORMAT) \
            or not isinstance(data.get("hosts"), list):
        raise FleetReportError(f"{p.name} is not a gpu-wizard fleet report")
    hosts = [h for h in data["hosts"] if isinstance(h, dict) and isinstance(h.get("host"), str)]
    page_dir = p.resolve().parent
    folder = str(data.get("folder") or "")
    base = data.get("host_reports")  # relative to the page, written since the window reads it
    for h in hosts:
        h.setdefault("flags", [])
        rel = h.get("report")
        h["report_path"] = None
        if not isinstance(rel, str) or not rel or os.path.isabs(rel) or ".." in Path(rel).parts:
            continue
        cands = [page_dir / base / rel] if isinstance(base, str) else []
        cands += [Path(folder) / rel] if folder else []
        cands += [page_dir / Path(folder).name / rel] if folder else []
        cands.append(page_dir / rel)  # moved with its host reports: beside it, or in the folder's name
        for c in cands:
            if c.is_file():
                h["report_path"] = str(c)
                break
    data["hosts"] = hosts
    data.setdefault("summary", {})
    return data
