"""The fleet report: one self-contained HTML page (and its JSON) with a row per host.

Reads a fleet folder (app/fleet/record.py): the record (`fleet-record.json`: every inventory host from
`fleet detect` on, reachable or not, its plan and its runs), each host's facts (`hosts/<host>/facts.json`,
computed once by `fleet detect`, so a report of 1,000 hosts detects nothing again), its verification
(`hosts/<host>/verify.json`) and its own report (`hosts/<host>/report.html`). Each row: GPUs, driver,
PyTorch, plan and last run, the four verify verdicts, host→GPU bandwidth and matmul TFLOP/s, and a link
to the host's own report. Host reports are written by `fleet verify`, or on demand (`fleet report DIR
--host NAME`, the window's fleet dialog, `--all-host-reports` in parallel), never 1,000 at a time by default.

The page opens with a summary (hosts by GPU, by driver, by verdict, the outliers) and its table sorts
(click a heading) and filters (a search box, and a click on a summary count).

Hosts that lag their peers (same GPU model) are flagged: a PCIe link narrower or slower than the
best peer's, or bandwidth / TFLOP/s at least 20 % under the peers' median (with at least 3 hosts of
that GPU measured). Sentences come from the message catalogue (report.fleet_*) in English or
Simplified Chinese; what the page shows from the hosts is redacted by app/report/redact (inventory
names stay: they are the admin's own labels).
"""
from __future__ import annotations

import json
import os
import statistics
import time
from html import escape
from pathlib import Path
from typing import Any, Optional

from .record import FleetDir, read_json

LAG_SHARE = 0.20  # at least this far under the peers' median is lagging
MIN_PEERS = 3  # hosts of one GPU model measured before a median means something


def _say(code: str, lang: str, **params: Any) -> str:
    from app.messages import render

    return render("report", code, {k: v for k, v in params.items()}, lang)


def _count(code: str, n: int, lang: str) -> str:
    """"1 host" / "3 hosts": the `_one` sentence for exactly one, where the language has it (zh_CN says both alike)."""
    return _say(code + "_one", lang, n=n) if n == 1 else _say(code, lang, n=n)


def _num(v: Any, digits: int = 1) -> str:
    if v is None or not isinstance(v, (int, float)) or isinstance(v, bool):
        return "—"
    return f"{v:.{digits}f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _read(p: Path) -> Optional[Any]:
    return read_json(str(p))


def facts_row(system: Any) -> dict[str, Any]:
    """What a fleet row shows of a host, from its snapshot (computed once, at `fleet detect`)."""
    from app.detect import detect

    return facts_row_of(detect(system))


def facts_row_of(facts: Any) -> dict[str, Any]:
    """A fleet row's facts from detection's answer (app.detect.Facts)."""
    gpus = [{"name": g.name, "memory_mib": g.memory_total_mib, "gen": g.pcie_gen_current, "gen_max": g.pcie_gen_max,
             "width": g.pcie_width_current, "width_max": g.pcie_width_max} for g in facts.gpus]
    py = facts.python
    return {"os": facts.os.pretty_name or facts.os.platform, "platform": "wsl2" if facts.os.wsl == 2 else facts.os.platform,
            "driver": facts.driver.version, "driver_state": facts.driver.state, "gpus": gpus,
            "torch": (py.torch.version if py and py.torch else None)}


def _facts_of(fd: FleetDir, host: str) -> dict[str, Any]:
    data = None if fd.legacy else _read(Path(fd.host_dir(host)) / "facts.json")
    if isinstance(data, dict):
        return {k: data.get(k) for k in ("os", "platform", "driver", "driver_state", "gpus", "torch")}
    snap = Path(fd.snapshot(host))
    if not snap.is_file():
        return {}
    from app.system import SnapshotError, SnapshotSystem

    try:  # a folder from before facts.json: read its snapshot once
        return facts_row(SnapshotSystem.load(str(snap)))
    except (SnapshotError, ValueError, OSError, RecursionError) as e:
        return {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}


def _verify_row(path: Path) -> Optional[dict[str, Any]]:
    data = _read(path)
    if not isinstance(data, dict):
        return None
    try:
        return _verify_fields(data)
    except (TypeError, AttributeError, ValueError, KeyError):  # a hand-made or hostile file: no verification shown
        return None


def _verify_fields(data: dict[str, Any]) -> dict[str, Any]:
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


def _best_dtype(gpus, data) -> Optional[str]:
    m = ((gpus[0].get("compute") if gpus else data.get("compute")) or {}).get("matmul_tflops") or {}
    return max(m, key=lambda k: m[k]) if isinstance(m, dict) and m else None


def _plan_status(row: dict[str, Any], lang: str) -> tuple[str, str]:
    """(status word for CSS, sentence) from the host's record: its last run, else its plan, else detect."""
    runs = [r for r in row.get("runs") or () if isinstance(r, dict) and not r.get("check")]
    det = row.get("detect") if isinstance(row.get("detect"), dict) else {}
    p = row.get("plan") if isinstance(row.get("plan"), dict) else None
    if runs:
        r = runs[-1]
        st = r.get("result")
        if st == "failed":
            return "fail", _say("fleet_run_failed", lang) + _reason(r)
        if st == "unreachable":
            return "fail", _say("fleet_run_unreachable", lang) + _reason(r)
        if st == "not_run":
            return "fail", _say("fleet_run_not_run", lang) + _reason(r)
        if st == "changed":
            return "pass", _say("fleet_run_changed", lang, changed=r.get("changed", 0))
        if st == "ok":
            return "pass", _say("fleet_run_ok", lang)
    if det and det.get("result") not in (None, "recorded"):
        return "fail", _say("fleet_detect_failed", lang) + _reason(det)
    if p:
        if p.get("status") == "error":
            return "fail", _say("fleet_plan_error", lang, error=str(p.get("error", "")))
        if p.get("status") == "nothing to do":
            return "pass", _say("fleet_plan_nothing", lang)
        work = [s for s in p.get("steps") or () if s != "verify"]
        return "info", _say("fleet_plan_changes", lang, steps=len(work))
    return "unknown", _say("fleet_plan_none", lang)


def _reason(entry: dict[str, Any]) -> str:
    from app.report.redact import Redactor

    why = entry.get("reason")
    return f": {Redactor().text(str(why))}" if why else ""


def build_fleet_report(folder: str | os.PathLike, *, lang: Optional[str] = None, host_reports: bool = False) -> dict[str, Any]:
    """The report's data; `host_reports` also writes the host reports that are missing (in parallel)."""
    from app.messages import resolve_lang
    from app.report.redact import Redactor

    lang = resolve_lang(lang)
    fd = FleetDir(str(folder))
    record = fd.read_record()
    names = list(record["hosts"]) + [h for h in fd.hosts_on_disk() if h not in record["hosts"]]
    if host_reports:
        write_host_reports(fd, None)
    rows: list[dict[str, Any]] = []
    red = Redactor()
    for host in names:
        rrow = record["hosts"].get(host, {})
        facts = _facts_of(fd, host)
        ver = _verify_row(Path(fd.verification(host)))
        pst, ptext = _plan_status(rrow, lang)
        report = Path(fd.report(host))
        row = {"host": host, **facts, "verification": ver, "plan_status": pst, "plan": ptext,
               "report": os.path.relpath(report, fd.root).replace(os.sep, "/") if report.is_file() else None, "flags": [],
               "detect": (rrow.get("detect") or {}).get("result"), "last_run": _last_run(rrow)}
        if ver and ver.get("torch"):
            row["torch"] = ver["torch"]
        rows.append(row)
    _flag_laggards(rows, lang)
    for row in rows:  # redacted like every report (host labels are the admin's own and stay)
        for k in ("os", "error"):
            if isinstance(row.get(k), str):
                row[k] = red.text(row[k])
    return {"format": "gpu-wizard-fleet-report/2", "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "lang": lang,
            "folder": fd.root, "hosts": rows, "summary": summarize_rows(rows)}


def _last_run(row: dict[str, Any]) -> Optional[dict[str, Any]]:
    runs = [r for r in row.get("runs") or () if isinstance(r, dict)]
    return {k: runs[-1].get(k) for k in ("time", "check", "result", "changed", "reason") if k in runs[-1]} if runs else None


def summarize_rows(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts for the page's summary: by GPU, by driver, by verdict, and the outliers."""
    by_gpu: dict[str, int] = {}
    by_driver: dict[str, int] = {}
    by_verdict: dict[str, int] = {}
    for r in rows:
        k = _gpu_label(r) or "—"
        by_gpu[k] = by_gpu.get(k, 0) + 1
        dv = str(r.get("driver") or "—")
        by_driver[dv] = by_driver.get(dv, 0) + 1
        v = (r.get("verification") or {}).get("status") or "not verified"
        by_verdict[v] = by_verdict.get(v, 0) + 1
    return {"hosts": len(rows), "gpus": sum(len(r.get("gpus") or ()) for r in rows),
            "verified": sum(1 for r in rows if r.get("verification")),
            "failed": sum(1 for r in rows if r["plan_status"] == "fail" or (r.get("verification") or {}).get("status") == "fail"),
            "lagging": sum(1 for r in rows if r["flags"]),
            "by_gpu": dict(sorted(by_gpu.items(), key=lambda kv: -kv[1])),
            "by_driver": dict(sorted(by_driver.items(), key=lambda kv: -kv[1])),
            "by_verdict": by_verdict, "outliers": [r["host"] for r in rows if r["flags"]]}


def _gpu_label(row: dict[str, Any]) -> str:
    names: dict[str, int] = {}
    for g in row.get("gpus") or ():
        if isinstance(g, dict):
            n = str(g.get("name") or "?")
            names[n] = names.get(n, 0) + 1
    return ", ".join(f"{n}× {k}" if n > 1 else k for k, n in names.items())


def write_host_report(fd: FleetDir, host: str) -> Optional[str]:
    """The host's own report from its snapshot (and verification): hosts/<host>/report.html."""
    from app.fleet.host import host_verify

    snap = fd.private(host) if os.path.isfile(fd.private(host)) else fd.snapshot(host)
    if not os.path.isfile(snap):
        return None
    v = fd.verification(host)
    tmp = os.path.join(os.path.dirname(fd.report(host)), "." + host + ".report-tmp")
    try:
        host_verify(tmp, snapshot=snap, verification=v if os.path.isfile(v) else None)
        os.replace(tmp + ".report.html", fd.report(host))
    except Exception:  # one host's report that cannot be written leaves its link out; the others come
        return None
    finally:
        for suffix in (".json", ".verify.json", ".report.html"):
            try:
                os.unlink(tmp + suffix)
            except OSError:
                pass
    return fd.report(host)


def adopt_host_files(fd: FleetDir, host: str, prefix: str) -> None:
    """host_verify's files, written under a temporary prefix in the host's folder, put in their places."""
    for suffix, name in ((".verify.json", "verify.json"), (".report.html", "report.html"), (".json", None)):
        p = prefix + suffix
        if os.path.isfile(p):
            if name:
                os.replace(p, os.path.join(fd.host_dir(host), name))
            else:
                os.unlink(p)


def _write_one(args: tuple[str, str]) -> Optional[str]:
    return write_host_report(FleetDir(args[0]), args[1])


def write_host_reports(fd: FleetDir, hosts: Optional[list[str]]) -> int:
    """Write these hosts' reports (None: every host without one), on every core."""
    todo = hosts if hosts is not None else [h for h in fd.hosts_on_disk() if not os.path.isfile(fd.report(h))]
    if not todo:
        return 0
    if len(todo) < 4:
        return sum(1 for h in todo if write_host_report(fd, h))
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        return sum(1 for r in ex.map(_write_one, [(fd.root, h) for h in todo], chunksize=8) if r)


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
            vals: list[tuple[dict[str, Any], float]] = [
                (r, float(v)) for r in peers for v in [(r.get("verification") or {}).get(metric)]
                if isinstance(v, (int, float)) and not isinstance(v, bool)]
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
.summary{margin:8px 0 12px}.sumrow{margin:4px 0}
.chip{display:inline-block;border:1px solid #d0d7de;border-radius:12px;padding:1px 9px;margin:2px 3px;font-size:13px;text-decoration:none;color:inherit}
.chip.lag{background:#fffbeb}
#fleet-filter{font-size:14px;padding:4px 8px;min-width:320px}
"""


SORT_FILTER_JS = """
(function(){
var t=document.querySelector('table.fleet'),q=document.getElementById('fleet-filter'),n=document.getElementById('fleet-shown');
if(!t)return;var tb=t.tBodies[0];
function rows(){return Array.prototype.slice.call(tb.rows).filter(function(r){return r.classList.contains('host')});}
function apply(){var w=(q.value||'').toLowerCase().split(/\\s+/).filter(Boolean),k=0;
 rows().forEach(function(r){var s=r.getAttribute('data-search'),ok=w.every(function(x){return s.indexOf(x)>=0});
  r.style.display=ok?'':'none';var f=r.nextElementSibling;if(f&&f.classList.contains('flags'))f.style.display=ok?'':'none';if(ok)k++;});
 n.textContent=k;}
q.addEventListener('input',apply);
Array.prototype.forEach.call(document.querySelectorAll('[data-filter]'),function(a){a.addEventListener('click',function(e){
 e.preventDefault();q.value=a.getAttribute('data-filter');apply();});});
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){th.style.cursor='pointer';th.addEventListener('click',function(){
 var dir=th.getAttribute('data-dir')==='asc'?-1:1;th.setAttribute('data-dir',dir>0?'asc':'desc');
 var rs=rows().map(function(r){var f=r.nextElementSibling;return [r,f&&f.classList.contains('flags')?f:null];});
 rs.sort(function(a,b){var x=a[0].cells[i].getAttribute('data-v')||a[0].cells[i].textContent,y=b[0].cells[i].getAttribute('data-v')||b[0].cells[i].textContent;
  var nx=parseFloat(x),ny=parseFloat(y);if(!isNaN(nx)&&!isNaN(ny))return (nx-ny)*dir;return x.localeCompare(y)*dir;});
 rs.forEach(function(p){tb.appendChild(p[0]);if(p[1])tb.appendChild(p[1]);});});});
apply();})();
"""


def _summary_html(s: dict[str, Any], lang: str) -> str:
    def chips(title_code: str, counts: dict[str, int], prefix: str) -> str:
        items = "".join(f"<a href='#' class='chip' data-filter='{escape(prefix + k.lower())}'>{escape(k)} <b>{n}</b></a>"
                        for k, n in list(counts.items())[:12])
        return f"<div class='sumrow'><span class='muted'>{escape(_say(title_code, lang))}</span> {items}</div>"

    verdicts = {_say("fleet_verdict_" + k.replace(" ", "_"), lang) if k in ("pass", "warn", "fail", "skip", "not verified") else k: n
                for k, n in (s.get("by_verdict") or {}).items()}
    out = [chips("fleet_sum_by_gpu", s.get("by_gpu") or {}, ""), chips("fleet_sum_by_driver", s.get("by_driver") or {}, ""),
           chips("fleet_sum_by_verdict", verdicts, "")]
    outl = s.get("outliers") or []
    if outl:
        out.append(f"<div class='sumrow'><span class='muted'>{escape(_say('fleet_sum_outliers', lang))}</span> "
                   + "".join(f"<a class='chip lag' href='#h-{escape(h)}'>{escape(h)}</a>" for h in outl[:50]) + "</div>")
    return "<section class='summary'>" + "".join(out) + "</section>"


def _host_row_html(r: dict[str, Any], cols: int, link_base: str, words: dict[str, str]) -> list[str]:
    ver = r.get("verification") or {}
    gpu_txt = _gpu_label(r) or "—"
    g, w = _link_of(r)
    if w:
        gpu_txt += f" · PCIe {g or '?'} x{w}"
    driver = str(r.get("driver") or "—")
    if r.get("platform") == "wsl2":
        driver += " (WSL2)"
    verdicts = "".join(f"<span class='badge v {escape(str(v or 'unknown'))}' title='{escape(str(k))}: {escape(str(v or ''))}'>"
                       f"{MARK.get(str(v or ''), '?')}</span>" for k, v in (ver.get("layers") or {}).items()) \
        or f"<span class='muted'>{words['not_verified']}</span>"
    flags = "<br>".join(escape(str(f.get("text", ""))) for f in r["flags"])
    link = f"<a href='{escape(link_base + r['report'])}'>{words['open']}</a>" if r.get("report") else \
        f"<span class='muted' title='gpu-wizard fleet report DIR --host {escape(r['host'])}'>{words['on_demand']}</span>"
    tf = _num(ver.get("tflops")) + (f" <span class='muted'>{escape(str(ver.get('tflops_dtype') or ''))}</span>" if ver.get("tflops") else "")
    lag = " lag" if r["flags"] else ""
    search = " ".join(str(x) for x in (r["host"], gpu_txt, driver, r.get("torch") or "", r.get("plan") or "", ver.get("status") or "",
                                        "lagging" if r["flags"] else "", r.get("os") or "")).lower()
    out = [f"<tr class='host{lag}' id='h-{escape(r['host'])}' data-search='{escape(search)}'><td><b>{escape(r['host'])}</b></td>"
           f"<td class='gpu'>{escape(gpu_txt)}</td><td>{escape(driver)}</td><td>{escape(str(r.get('torch') or '—'))}</td>"
           f"<td class='st-{escape(str(r['plan_status']))}'>{escape(str(r['plan']))}</td><td data-v='{escape(str(ver.get('status') or ''))}'>{verdicts}</td>"
           f"<td class='num' data-v='{_num(ver.get('h2d_gbps'))}'>{_num(ver.get('h2d_gbps'))}</td>"
           f"<td class='num' data-v='{_num(ver.get('tflops'))}'>{tf}</td><td>{link}</td></tr>"]
    if r["flags"]:  # what lags, in words, on a line of its own under the host
        out.append(f"<tr class='lag flags'><td class='muted'>{words['flags']}</td><td colspan='{cols - 1}'>{flags}</td></tr>")
    return out


def render_fleet_html(report: dict[str, Any], link_base: str = "") -> str:
    from app.report.render_html import CSS

    lang = report.get("lang", "en")
    s = report["summary"]
    cols = ["host", "gpus", "driver", "pytorch", "plan", "verdicts", "bandwidth", "tflops", "report"]
    head = "".join(f"<th>{escape(_say('fleet_col_' + c, lang))}</th>" for c in cols)
    words = {"open": escape(_say("fleet_open_host", lang)), "not_verified": escape(_say("fleet_not_verified", lang)),
             "flags": escape(_say("fleet_col_flags", lang)), "on_demand": escape(_say("fleet_report_on_demand", lang))}
    body: list[str] = []
    for r in report["hosts"]:
        body += _host_row_html(r, len(cols), link_base, words)
    title = _say("fleet_title", lang, hosts=_count("fleet_n_hosts", s["hosts"], lang))
    summary = _say("fleet_summary", lang, hosts=_count("fleet_n_hosts", s["hosts"], lang), gpus=_count("fleet_n_gpus", s["gpus"], lang), verified=s["verified"], lagging=s["lagging"], failed=s["failed"])
    embed = json.dumps(report, ensure_ascii=False).replace("</", "<\\/")
    filt = (f"<p><input id='fleet-filter' type='search' placeholder='{escape(_say('fleet_filter_hint', lang))}'> "
            f"<span class='muted'>{escape(_say('fleet_shown', lang))} <b id='fleet-shown'>{s['hosts']}</b></span></p>")
    return (f"<!DOCTYPE html><html lang='{'zh-CN' if lang == 'zh_CN' else 'en'}'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{escape(title)}</title>"
            f"<style>{CSS}{FLEET_CSS}</style></head><body><main><h1>{escape(title)}</h1>"
            f"<p class='sub'>{escape(summary)}</p>{_summary_html(s, lang)}"
            f"<p class='muted'>{escape(_say('fleet_lag_rule', lang, share='20%', peers=MIN_PEERS))}</p>{filt}"
            f"<div class='wide'><table class='fleet'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
            f"<footer>{escape(report.get('created', ''))} · gpu-wizard fleet report</footer></main>"
            f"<script type='application/json' id='gpu-wizard-fleet-report'>{embed}</script>"
            f"<script>{SORT_FILTER_JS}</script></body></html>\n")


def write_fleet_report(report: dict[str, Any], out: str | os.PathLike) -> tuple[str, str]:
    """Write the page and its JSON beside it; links to host reports relative to the page."""
    out = Path(out).resolve()
    folder = Path(report["folder"])
    rel = os.path.relpath(folder, out.parent)
    base = "" if rel == "." else rel.replace(os.sep, "/") + "/"
    report = dict(report, host_reports=base or ".")  # where the host reports are, from the page: the window opens them
    from .record import write_bytes

    html = render_fleet_html(report, link_base=base)
    write_bytes(str(out), html.encode("utf-8"))
    jpath = out.with_suffix(".json")
    write_bytes(str(jpath), json.dumps(report, ensure_ascii=False, indent=1).encode("utf-8"))
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
        from app import fileio

        data = fileio.loads(text)
    except (ValueError, RecursionError):  # nested thousands deep: one line, never a traceback
        raise FleetReportError(f"{p.name} is not a gpu-wizard fleet report (its JSON does not read)") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith(FLEET_FORMAT) \
            or not isinstance(data.get("hosts"), list):
        raise FleetReportError(f"{p.name} is not a gpu-wizard fleet report")
    hosts = [h for h in data["hosts"] if isinstance(h, dict) and isinstance(h.get("host"), str)]
    page_dir = p.resolve().parent
    base = data.get("host_reports")  # relative to the page, written since the window reads it
    fleet_dir = _fleet_dir_of(page_dir, base, data.get("folder"))
    data["fleet_dir"] = fleet_dir
    fd = FleetDir(fleet_dir) if fleet_dir else None
    for h in hosts:
        if not isinstance(h.get("flags"), list):
            h["flags"] = []
        h["report_path"] = host_report_path(page_dir, base, h.get("report"), data.get("folder"))
        h["can_render"] = bool(fd and _has_snapshot(fd, h["host"]))  # its report can be written on demand
    data["hosts"] = hosts
    if not isinstance(data.get("summary"), dict):
        data["summary"] = {}
    return data


def _has_snapshot(fd: FleetDir, host: str) -> bool:
    try:
        return os.path.isfile(fd.snapshot(host)) or os.path.isfile(fd.private(host))
    except ValueError:
        return False


def _fleet_dir_of(page_dir: Path, base: Any, folder: Any) -> Optional[str]:
    """The fleet folder a page describes, only when it lies inside the page's own folder."""
    root = page_dir.resolve()
    cands: list[Path] = []
    if isinstance(base, str) and base and not os.path.isabs(base) and ".." not in Path(base).parts:
        cands.append(root / base)
    if isinstance(folder, str) and Path(folder).name not in ("", ".", ".."):
        cands.append(root / Path(folder).name)
    cands.append(root)
    for c in cands:
        try:
            real = c.resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if real.is_dir() and (real == root or root in real.parents):
            return str(real)
    return None


def ensure_host_report(data: dict[str, Any], host: str) -> Optional[str]:
    """A host's own report for the window: the one on disk, else written now from its snapshot (on
    demand: a fleet report of 1,000 hosts never writes 1,000 of them up front)."""
    row = next((h for h in data.get("hosts") or () if isinstance(h, dict) and h.get("host") == host), None)
    if row is None:
        return None
    if row.get("report_path"):
        return str(row["report_path"])
    if not data.get("fleet_dir") or not row.get("can_render"):
        return None
    fd = FleetDir(str(data["fleet_dir"]))
    path = write_host_report(fd, host)
    if path:
        row["report_path"] = path
    return path


def host_report_path(page_dir: Path, base: Any, rel: Any, folder: Any = None) -> Optional[str]:
    """A host's report named by a fleet report: a plain relative name (hosts/<host>/report.html, or an
    older <host>.report.html), found under the page's own folder and never outside it (links followed:
    the real file must lie inside too)."""
    if not isinstance(rel, str) or not rel or os.path.isabs(rel) or "\\" in rel or ".." in Path(rel).parts:
        return None
    if not rel.endswith(".html"):
        return None
    root = page_dir.resolve()
    cands = []
    if isinstance(base, str) and base and not os.path.isabs(base) and ".." not in Path(base).parts:
        cands.append(root / base / rel)
    if isinstance(folder, str) and Path(folder).name not in ("", ".", ".."):  # a page from before host_reports: its folder's name
        cands.append(root / Path(folder).name / rel)
    cands.append(root / rel)
    for c in cands:
        try:
            real = c.resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if real.is_file() and (real == root or root in real.parents):
            return str(real)
    return None
