"""Out of memory, told apart by the numbers in PyTorch's message and by live facts.

PyTorch prints two shapes of message:
  old (<= 2.0): "Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; 20.10 GiB already
                 allocated; 1.20 GiB free; 21.50 GiB reserved in total by PyTorch)"; up to 1.3 the last
                 figure was "... cached": the cache beyond the allocated memory (cached - allocated in
                 the allocator's own message), so reserved is allocated + cached there
  new (>= 2.1): "Tried to allocate 22.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which
                 11.06 MiB is free. Including non-PyTorch memory, this process has 23.60 GiB memory
                 in use. [Process N has X memory in use.] Of the allocated memory 22.90 GiB is
                 allocated by PyTorch, and 194.87 MiB is reserved by PyTorch but unallocated."

From them (all in MiB): requested X, total T, free F, allocated A (live tensors), reserved R
(A + cached), cached-but-unallocated U = R - A, this process P, and memory held by others
O = T - F - (P or R + a CUDA context). The verdicts:

  too_small      A + X does not fit in what is left after others (or X alone is near T):
                 smaller batch, mixed precision (bf16/fp16), activation checkpointing.
  fragmentation  U is large (>= X, or >= 20% of R): the cache holds enough memory but in pieces;
                 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.
  other_process  O is large, or live NVML/nvidia-smi shows other processes holding memory.
  leak           memory figures (several OOM messages, or per-iteration usage lines in a log) creep
                 up: tensors kept alive across iterations (e.g. `total_loss += loss` without .item()).
  child_contexts several processes of the same program each hold a CUDA context (DataLoader
                 workers or multiprocessing children that touched CUDA): use the spawn start method.
"""
from __future__ import annotations

import re
from typing import Any, Optional

from app.diagnose.model import Evidence, FixStep, Match, OomAnalysis, OomNumbers, OomVerdict

CONTEXT_MIB = 512.0  # a CUDA context with PyTorch's kernels loaded: roughly 300-600 MiB
_SIZE = r"(\d+(?:\.\d+)?) ?([kmgt]i?b|bytes)"
_UNITS = {"b": 1 / 2**20, "bytes": 1 / 2**20, "kib": 1 / 1024, "kb": 1000 / 2**20, "mib": 1.0, "mb": 1e6 / 2**20,
          "gib": 1024.0, "gb": 1e9 / 2**20, "tib": 1024.0**2, "tb": 1e12 / 2**20}
_OLD = re.compile(
    r"tried to allocate " + _SIZE + r" \(gpu (\d+); " + _SIZE + r" total capacity; " + _SIZE + r" already allocated; "
    + _SIZE + r" free; (?:" + _SIZE + r" allowed; )?" + _SIZE + r" (?P<held>reserved in total by pytorch|cached)\)", re.IGNORECASE)
_NEW = re.compile(
    r"tried to allocate " + _SIZE + r"\.? gpu (\d+) has a total capac(?:i)?ty of " + _SIZE + r" of which " + _SIZE
    + r" is free\.(?P<mid>.{0,600}?)of the allocated memory " + _SIZE + r" is allocated by pytorch,"
    # PyTorch >= 2.2 may add ", with X allocated in private pools (e.g., CUDA Graphs)," before the cache figure
    + r"(?: with \d+(?:\.\d+)? ?(?:[kmgt]i?b|bytes) allocated in private pools(?: \([^)]{0,40}\))?,)? and " + _SIZE
    + r" is reserved by pytorch but unallocated", re.IGNORECASE)
_THIS_PROC = re.compile(r"this process has " + _SIZE + r" memory in use", re.IGNORECASE)
_OTHER_PROC = re.compile(r"process (\d+) has " + _SIZE + r" memory in use", re.IGNORECASE)
_ANCHOR = re.compile(r"tried to allocate", re.IGNORECASE)


def mib(value: str, unit: str) -> float:
    return round(float(value) * _UNITS[unit.lower()], 2)


def _fmt(v: Optional[float]) -> str:
    if v is None:
        return "?"
    return f"{v / 1024:.2f} GiB" if v >= 1024 else f"{v:.0f} MiB"


def parse_oom_messages(text: str) -> list[OomNumbers]:
    """Every "Tried to allocate" message in `text` (whitespace already collapsed or not)."""
    flat = re.sub(r"\s+", " ", text)
    out: list[OomNumbers] = []
    for a in _ANCHOR.finditer(flat):
        seg = flat[a.start():a.start() + 1500]
        m = _OLD.match(seg)
        if m:
            g = m.groups()
            alloc, held = mib(g[5], g[6]), mib(g[11], g[12])
            if m.group("held").lower() == "cached":  # PyTorch <= 1.3 printed the cache beyond the allocated memory
                reserved, unalloc = round(alloc + held, 2), held
            else:  # 1.4 and later: all PyTorch reserved
                reserved, unalloc = held, round(max(0.0, held - alloc), 2)
            out.append(OomNumbers(format="old", requested_mib=mib(g[0], g[1]), gpu_index=int(g[2]), total_mib=mib(g[3], g[4]),
                                  allocated_mib=alloc, free_mib=mib(g[7], g[8]), reserved_mib=reserved,
                                  reserved_unallocated_mib=unalloc))
            continue
        m = _NEW.match(seg)
        if m:
            g = m.groups()
            mid = m.group("mid") or ""
            tp = _THIS_PROC.search(mid)
            others = tuple((p.group(1), mib(p.group(2), p.group(3))) for p in _OTHER_PROC.finditer(mid))
            alloc, unalloc = mib(g[8], g[9]), mib(g[10], g[11])
            out.append(OomNumbers(format="new", requested_mib=mib(g[0], g[1]), gpu_index=int(g[2]), total_mib=mib(g[3], g[4]),
                                  free_mib=mib(g[5], g[6]), allocated_mib=alloc, reserved_unallocated_mib=unalloc,
                                  reserved_mib=round(alloc + unalloc, 2),
                                  process_mib=mib(tp.group(1), tp.group(2)) if tp else None, other_processes=others))
    return out


def is_creeping(series: list[float]) -> Optional[tuple[float, float, int]]:
    """(first, last, points) when the figures rise steadily: at least 3 points, mostly
    non-decreasing (>= 70% of steps), and the last 10% (and 64 MiB) above the first."""
    s = [x for x in series if x is not None and x > 0]
    if len(s) < 3:
        return None
    # compare the means of the first and last fifths, robust to noise
    k = max(1, len(s) // 5)
    first, last = sum(s[:k]) / k, sum(s[-k:]) / k
    steps = [b - a for a, b in zip(s, s[1:])]
    up = sum(1 for d in steps if d >= 0) / len(steps)
    if up >= 0.7 and last >= first * 1.10 and last - first >= 64:
        return round(first, 1), round(last, 1), len(s)
    return None


_SUMMARY_CMD = ("{python}", "-c", "import torch; print(torch.cuda.memory_summary())")
_APPS_CMD = ("nvidia-smi", "--query-compute-apps=pid,process_name,used_memory", "--format=csv")


# the verdicts' sentences: (root cause, fix) by code; the catalogue's diagnose.oom.<code>.root_cause / .fix are
# these sentences (tests/unit/test_diagnose_evidence_i18n.py keeps them equal)
TEXTS: dict[str, tuple[str, str]] = {
    "too_small_one": ("One allocation of {requested} is about as large as the whole GPU ({total}): the input or batch is far too big for this card.",
                      "Reduce the batch size or input resolution; process the data in chunks; use mixed precision (bf16/fp16) and activation checkpointing."),
    "too_small_live": ("Live tensors already take {allocated} of {total} and {requested} more was asked: the model and batch do not fit on this GPU.",
                       "Use a smaller batch size (or gradient accumulation), mixed precision (torch.autocast with bf16/fp16), activation checkpointing, or a GPU with more memory."),
    "fragmentation": ("PyTorch holds {unallocated} reserved but unallocated (of {reserved} reserved): its cache is fragmented, so the {requested} block does not fit in the free pieces.",
                      "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before starting Python (older PyTorch: max_split_size_mb:128); avoid varying tensor shapes between iterations."),
    "other_outside": ("About {others} of the GPU's {total} is held outside PyTorch's cache in this process: another process (or another program's context) uses the GPU.",
                      "Find and stop the other process (nvidia-smi lists GPU processes and their memory), or run on another GPU with CUDA_VISIBLE_DEVICES."),
    "child_listed": ("Several processes each hold a CUDA context ({listing}): child processes (DataLoader workers, multiprocessing) touched CUDA.",
                     "Keep CUDA work in the main process; start workers with the spawn method (multiprocessing.set_start_method('spawn'))."),
    "other_listed": ("Other processes hold GPU memory: {listing}.", "Stop them or use another GPU (CUDA_VISIBLE_DEVICES)."),
    "outside_allocator": ("This process uses {outside} outside PyTorch's allocator (other CUDA libraries, or tensors from another framework in the same process).",
                          "Check other GPU libraries in the process (e.g. another framework preallocating memory) and limit them."),
    "live_children": ("{count} processes named {name} each hold a CUDA context: {listing}. Child processes that touched CUDA keep a context (hundreds of MiB) each.",
                      "Use the spawn start method and keep CUDA out of worker processes (DataLoader workers should return CPU tensors; pin_memory moves them)."),
    "live_other": ("Other processes hold GPU memory now: {listing}.",
                   "Stop those processes (or wait for them), or run on a free GPU with CUDA_VISIBLE_DEVICES."),
    "leak": ("Memory in use creeps up across the log: from about {first} to {last} over {count} readings. Tensors are kept alive between iterations.",
             "Accumulate Python numbers, not tensors (total_loss += loss.item()); detach what you store (history.append(out.detach().cpu())); do not keep graphs across iterations; call optimizer.zero_grad(set_to_none=True)."),
    "forked": ("CUDA was used in a forked child process: every child that touches CUDA needs its own context.",
               "Use the spawn start method (multiprocessing.set_start_method('spawn'))."),
    "unknown": ("The GPU ran out of memory; the message carries no numbers to tell why.",
                "Print torch.cuda.memory_summary() where it fails and list GPU processes with nvidia-smi; then reduce the batch size or the input resolution (image size), or use mixed precision."),
}
# the evidence sentences (diagnose.evidence.<code>)
EVIDENCE: dict[str, str] = {
    "oom_numbers": "total {total}, free {free}, requested {requested}, allocated by PyTorch {allocated}, reserved {reserved} (of which unallocated {unallocated})",
    "oom_numbers_process": "total {total}, free {free}, requested {requested}, allocated by PyTorch {allocated}, reserved {reserved} (of which unallocated {unallocated}), this process {process}",
    "oom_numbers_others": "total {total}, free {free}, requested {requested}, allocated by PyTorch {allocated}, reserved {reserved} (of which unallocated {unallocated}), others about {others}",
    "oom_numbers_process_others": "total {total}, free {free}, requested {requested}, allocated by PyTorch {allocated}, reserved {reserved} (of which unallocated {unallocated}), this process {process}, others about {others}",
    "oom_listing": "{listing}",
    "oom_readings": "{count} memory readings, first fifth about {first}, last fifth about {last}",
    "oom_top": "Numbers: {seen}",
    "oom_also": "Also possible ({verdict}, {confidence}): {message}",
}


def _names(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def _verdict(code: str, text: str, confidence: float, params: dict[str, Any], commands: tuple = (), evidence: str = "") -> OomVerdict:
    p = {k: str(v) for k, v in params.items()}
    cause, fix = TEXTS[text]
    seen = EVIDENCE[evidence].format(**p) if evidence else ""
    return OomVerdict(code=code, confidence=confidence, message=cause.format(**p), fix=fix, commands=commands,  # type: ignore[arg-type]
                      evidence=(seen,) if seen else (), text_code=text, evidence_code=evidence, params=p)


def _number_params(n: OomNumbers, ours: Optional[float], other: Optional[float]) -> tuple[dict[str, str], str]:
    p = {"total": _fmt(n.total_mib), "free": _fmt(n.free_mib), "requested": _fmt(n.requested_mib), "allocated": _fmt(n.allocated_mib),
         "reserved": _fmt(n.reserved_mib), "unallocated": _fmt(n.reserved_unallocated_mib)}
    code = "oom_numbers"
    if n.process_mib is not None:
        p["process"], code = _fmt(n.process_mib), code + "_process"
    if other is not None:
        p["others"], code = _fmt(other), code + "_others"
    return p, code


def _ours_and_others(n: OomNumbers) -> tuple[Optional[float], Optional[float], list]:
    """This process's memory, the others' (MiB), and the other processes the message lists."""
    T, F, R, P = n.total_mib, n.free_mib, n.reserved_mib, n.process_mib
    ours = P if P is not None else ((R or 0) + CONTEXT_MIB if R is not None else None)
    other = max(0.0, T - F - ours) if (T is not None and F is not None and ours is not None) else None
    listed = list(n.other_processes)
    # in a container the message lists our own PID as "Process N": the one near our reserved memory
    if listed and R is not None:
        mine = [p for p in listed if abs(p[1] - R) <= CONTEXT_MIB * 2]
        if mine and P is None:
            ours = mine[0][1]
            other = max(0.0, T - F - ours) if T is not None and F is not None else other
            listed = [p for p in listed if p is not mine[0]]
    return ours, other, listed


def _size_verdicts(n: OomNumbers, other: Optional[float], nums: dict[str, str], ev: str) -> list[OomVerdict]:
    out: list[OomVerdict] = []
    T, A, R, U, X = n.total_mib, n.allocated_mib, n.reserved_mib, n.reserved_unallocated_mib, n.requested_mib
    if X is not None and T and X >= 0.9 * T:
        out.append(_verdict("too_small", "too_small_one", 0.9, nums, (_SUMMARY_CMD,), ev))
    elif A is not None and T and X is not None:
        usable = T - (other or 0.0) - CONTEXT_MIB
        if A >= 0.8 * T or A + X >= 0.92 * usable:
            out.append(_verdict("too_small", "too_small_live", 0.85 if A >= 0.8 * T else 0.7, nums, (_SUMMARY_CMD,), ev))
    if U is not None and R and (X is not None and U >= X or U >= 0.2 * R) and U >= 256:
        conf = 0.8 if X is not None and U >= X else 0.6
        if out and X is not None and U < 2 * X:  # a full GPU whose cache only just holds the request: the size first
            conf = min(conf, 0.6)
        if out and U < 0.2 * R:  # a full GPU with a cache a small share of what is reserved: the size first (the
            conf = min(conf, 0.6)  # allocator frees its unused cache and retries before it reports out of memory)
        out.append(_verdict("fragmentation", "fragmentation", conf, nums, (_SUMMARY_CMD,), ev))
    if other is not None and T and other >= max(1024.0, 0.15 * T):
        # on a full GPU, others' memory estimated from an old message (no figure for this process: its CUDA context
        # guessed) within that guess's error comes after the size
        near_guess = n.process_mib is None and other < 3 * CONTEXT_MIB and any(v.code == "too_small" for v in out)
        out.append(_verdict("other_process", "other_outside", 0.65 if near_guess else 0.75, nums, (_APPS_CMD,), ev))
    return out


def _message_verdicts(n: OomNumbers) -> list[OomVerdict]:
    """What the numbers of one message tell (the sizes, the processes it lists)."""
    ours, other, listed = _ours_and_others(n)
    nums, ev = _number_params(n, ours, other)
    out = _size_verdicts(n, other, nums, ev)
    if listed:
        listing = ", ".join(f"PID {pid} ({_fmt(m)})" for pid, m in listed)
        if len(listed) >= 2 and all(m <= 2048 for _, m in listed):
            out.append(_verdict("child_contexts", "child_listed", 0.65, {"listing": listing}, (_APPS_CMD, ("ps", "-eo", "pid,ppid,cmd")), "oom_listing"))
        else:
            out.append(_verdict("other_process", "other_listed", 0.8, {"listing": listing}, (_APPS_CMD,), "oom_listing"))
    P, R = n.process_mib, n.reserved_mib
    if P is not None and R is not None and P - R >= 1536:
        out.append(_verdict("other_process", "outside_allocator", 0.45, {**nums, "outside": _fmt(P - R)}, (_APPS_CMD,), ev))
    return out


def _live_verdicts(live: dict) -> list[OomVerdict]:
    """Other processes holding GPU memory now (NVML / nvidia-smi)."""
    procs = [p for p in (live.get("processes") or []) if isinstance(p, dict)]
    this_pid = str(live.get("this_pid")) if live.get("this_pid") is not None else None
    big = [p for p in procs if (this_pid is None or str(p.get("pid")) != this_pid) and (p.get("used_mib") or 0) >= 256]
    if not big:
        return []
    by_name: dict[str, list[dict]] = {}
    for p in big:
        by_name.setdefault(str(p.get("name") or "?"), []).append(p)
    name, group = max(by_name.items(), key=lambda kv: len(kv[1]))
    listing = ", ".join(f"{p.get('name')} (PID {p.get('pid')}) {_fmt(float(p.get('used_mib') or 0))}" for p in big[:8])
    if len(group) >= 3 and all((p.get("used_mib") or 0) <= 2048 for p in group):
        return [_verdict("child_contexts", "live_children", 0.8, {"count": len(group), "name": name, "listing": listing},
                         (_APPS_CMD, ("ps", "-eo", "pid,ppid,cmd")), "oom_listing")]
    return [_verdict("other_process", "live_other", 0.9, {"listing": listing}, (_APPS_CMD,), "oom_listing")]


_LEAK_CMDS = (("{python}", "-c", "import torch; torch.cuda.memory._record_memory_history(); print('record, then torch.cuda.memory._dump_snapshot()')"),
              ("nvidia-smi", "--query-gpu=memory.used", "--format=csv", "-l", "1"))


def _verdicts(n: Optional[OomNumbers], series: list[float], live: dict, text: str) -> list[OomVerdict]:
    out: list[OomVerdict] = _message_verdicts(n) if n is not None else []
    out += _live_verdicts(live)
    creep = is_creeping(series)
    if creep:
        first, last, count = creep
        out.append(_verdict("leak", "leak", 0.75, {"first": _fmt(first), "last": _fmt(last), "count": count}, _LEAK_CMDS, "oom_readings"))
    if re.search(r"cannot re-initialize cuda in forked subprocess", text, re.IGNORECASE) and not any(v.code == "child_contexts" for v in out):
        out.append(_verdict("child_contexts", "forked", 0.6, {}, (_APPS_CMD,)))
    if not out:
        out.append(_verdict("unknown", "unknown", 0.3, {}, (_SUMMARY_CMD, _APPS_CMD)))
    # one verdict per code, the most confident
    best: dict[str, OomVerdict] = {}
    for v in sorted(out, key=lambda v: -v.confidence):
        best.setdefault(v.code, v)
    return sorted(best.values(), key=lambda v: -v.confidence)


def analyze_oom(text: str, usage_mib: Optional[list[float]] = None, *, facts: Any = None, live: Optional[dict] = None) -> OomAnalysis:
    """The out-of-memory analysis of a text (the kept windows or a whole paste)."""
    numbers = parse_oom_messages(text)
    series = [n.allocated_mib for n in numbers if n.allocated_mib is not None]
    usage = list(usage_mib or [])
    use_series = usage if len(usage) >= len(series) else series
    last = numbers[-1] if numbers else None
    verdicts = _verdicts(last, use_series, live or {}, text)
    return OomAnalysis(numbers=tuple(numbers), usage_series_mib=tuple(round(x, 1) for x in use_series[:512]), verdicts=tuple(verdicts))


def _fix(id: str, kind: str, title_code: str, why_code: str, **kw) -> FixStep:
    """A fix step said by its catalogue codes (plan.<code>): its English is the catalogue's."""
    from app.plan.model import english

    return FixStep(id=id, kind=kind, title=english(title_code, {}), why=english(why_code, {}), title_code=title_code,
                   why_code=why_code, **kw)


def _expandable_segments(why_code: str) -> FixStep:
    return _fix("set_expandable_segments", "write_env", "diagnose_oom_expandable_segments", why_code,
                env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}, manual=True,
                notes=("Set it in the shell or job script that starts training, before Python starts.",))


_FIX_STEPS = {
    "fragmentation": _expandable_segments("diagnose_oom_fragmentation_why"),
    # the same step when another verdict leads (a nearly full GPU whose cache also holds the request)
    "fragmentation_also": _expandable_segments("diagnose_oom_fragmentation_also_why"),
    "other_process": _fix("check_gpu_processes", "verify", "diagnose_oom_check_gpu_processes", "diagnose_oom_other_process_why",
                          argv=(_APPS_CMD,)),
    "child_contexts": _fix("check_gpu_processes", "verify", "diagnose_oom_check_gpu_processes", "diagnose_oom_child_contexts_why",
                           argv=(_APPS_CMD,)),
}


def apply_to_match(m: Match, oom: OomAnalysis) -> Match:
    """Fold the OOM analysis into the generic oom match: the top verdict names the cause."""
    if not oom.verdicts:
        return m
    top = oom.verdicts[0]
    evidence = list(m.evidence)
    for v in oom.verdicts:
        for e in v.evidence[:1]:
            if v is top:  # {seen} is the evidence sentence of the verdict, {message} its root cause
                code, inner, params = "oom_top", EVIDENCE[v.evidence_code], {"seen_code": f"evidence.{v.evidence_code}"}
            else:
                code, inner = "oom_also", TEXTS[v.text_code][0]
                params = {"verdict": v.code, "confidence": f"{v.confidence:.2f}", "message_code": f"oom.{v.text_code}.root_cause"}
            params.update({k: x for k, x in v.params.items() if k in _names(inner)})
            msg = EVIDENCE[code].format(seen=e, message=v.message, **params)
            if not any(x.message == msg for x in evidence):
                evidence.append(Evidence(source="live" if v.text_code.startswith("live_") else "text", message=msg, key="oom",
                                         code=code, params=params))
    cmds = []
    python = "python3"
    for c in top.commands + m.commands:
        c = tuple(python if x == "{python}" else x for x in c)
        if c not in cmds:
            cmds.append(c)
    # the top verdict's step, then those of the other verdicts the numbers also support (a nearly full GPU whose
    # cache holds the request: a smaller batch and expandable segments both help)
    steps = [_FIX_STEPS[top.code]] if top.code in _FIX_STEPS else []
    if top.code != "fragmentation" and any(v.code == "fragmentation" and v.confidence >= 0.6 for v in oom.verdicts):
        steps.append(_FIX_STEPS["fragmentation_also"])
    conf = round(min(0.99, max(m.confidence, 0.6 + 0.35 * top.confidence)), 2)
    # the verdict's own sentences (with their figures, diagnose.oom.<text_code>) replace the rule's
    return m.replace(subcode=top.code, root_cause=top.message, fix=top.fix, root_cause_code=f"oom.{top.text_code}",
                     fix_code=f"oom.{top.text_code}", params={k: v for k, v in top.params.items() if k in _names(" ".join(TEXTS[top.text_code]))},
                     commands=tuple(cmds), evidence=tuple(evidence),
                     fix_steps=tuple(steps), confidence=conf)
