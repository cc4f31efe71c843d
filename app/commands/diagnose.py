"""gpu-wizard diagnose: name the root cause of an error message or log, with evidence from this
machine (or the --snapshot given) and the fix as steps.

    gpu-wizard diagnose --text-file error.txt
    gpu-wizard diagnose --log train.log --json
    some_command 2>&1 | gpu-wizard diagnose -
    gpu-wizard diagnose --samples verification.json      # low GPU utilization, from sampler samples
"""
from __future__ import annotations

import sys
from typing import Any, Optional

from app import fileio

HELP = "name the root cause of an error message or log, and the fix"

# categories whose evidence needs the target Python's torch (the probe runs it: a few seconds)
_NEEDS_TORCH = {"no_kernel_image", "cuda_unavailable", "cudnn_missing", "cudnn_not_supported", "driver_insufficient", "nvcc_not_found"}


def add_arguments(p) -> None:
    p.add_argument("input", nargs="?", metavar="-", help="'-' reads the text from standard input")
    p.add_argument("--text-file", metavar="FILE", help="a file holding the error text (a traceback, installer output)")
    p.add_argument("--log", metavar="FILE", help="a log file of any size (read in chunks; only the relevant parts are kept)")
    p.add_argument("--text", metavar="TEXT", help="the error text itself")
    p.add_argument("--samples", metavar="FILE",
                   help="utilization samples (JSON: a list of sample objects, or a `gpu-wizard verify --json` document; or `nvidia-smi dmon` output) for the low-utilization analysis")
    p.add_argument("--no-detect", action="store_true", help="use the text alone; do not look at this machine")
    p.add_argument("--python", metavar="PATH", help="the Python environment whose PyTorch to inspect")
    p.add_argument("--venv", metavar="PATH", default=None,
                   help="the plan's virtual environment, where a PyTorch reinstall goes when the error came from the system's Python (default ~/.venvs/gpu)")
    from app.config import add_mirror_arguments

    add_mirror_arguments(p)  # the fix's pip commands use the run's mirrors, proxy and CA bundle


def _open_input(args):
    from app.commands.base import CliError

    given = [x for x in (args.text_file, args.log, args.text) if x is not None] + ([args.input] if args.input else [])
    if len(given) > 1:
        raise CliError("give one input: --text-file FILE, --log FILE, --text TEXT or - (standard input)", 2)
    if args.input and args.input != "-":
        raise CliError(f"unexpected argument {args.input!r}: use --text-file FILE, --log FILE, or - for standard input", 2)
    if args.text is not None:
        import io

        return io.BytesIO(args.text.encode("utf-8", errors="replace")), "text"
    if args.input == "-":
        return sys.stdin.buffer, "stdin"
    path = args.text_file or args.log
    if path is None:
        if args.samples:
            import io

            return io.BytesIO(b""), "none"
        raise CliError("nothing to diagnose: give --text-file FILE, --log FILE, --text TEXT, or - to read standard input", 2)
    try:
        return open(path, "rb"), path
    except IsADirectoryError:
        raise CliError(f"{path} is a folder, not a file", 2) from None
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}", 2) from None


def load_samples(path: str):
    """Samples from a JSON file: a list of sample objects, {"samples": [...]}, or a Verification."""
    from app.commands.base import CliError

    try:
        with open(path, "rb") as fh:
            raw = fh.read(64 * 1024 * 1024).decode("utf-8", errors="replace")
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}", 2) from None
    try:
        data = fileio.loads(raw)
    except ValueError as e:
        from app.diagnose.utilization import parse_dmon

        rows = parse_dmon(raw)  # `nvidia-smi dmon` output pasted into a file
        if rows:
            return rows
        raise CliError(f"{path} is neither JSON samples nor nvidia-smi dmon output: {e}", 2) from None
    if isinstance(data, dict):
        if isinstance(data.get("samples"), list) and all(isinstance(x, dict) for x in data["samples"]):
            return data  # a Verification: its device figures inform the power verdict
        data = data.get("samples", [])
    if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
        raise CliError(f"{path}: expected a list of sample objects (or a document with 'samples')", 2)
    return data


def _detect(ctx, torch: bool):
    try:
        return ctx.facts(torch=torch, venv_check=False), None
    except Exception as e:  # a broken machine or snapshot: diagnose the text alone
        from app.commands.base import CliError

        if isinstance(e, CliError):
            raise
        return None, f"could not read this machine's facts ({type(e).__name__}: {e}); the diagnosis uses the text alone"


def choices_from_args(args):
    """The run's Choices for the fix steps: the venv and the mirrors, proxy and CA (flags over the config file
    over the environment, as `plan` reads them)."""
    from app.choices import Choices
    from app.commands.base import CliError
    from app.config import ConfigError, mirrors_from_args

    try:
        mirrors, _cfg = mirrors_from_args(args)
    except ConfigError as e:
        raise CliError(str(e), 2) from None
    return Choices(mirrors=mirrors, **({"venv_path": args.venv} if getattr(args, "venv", None) else {}))


def machine_words(p, lang: str) -> str:
    """The assumed machine in the user's language: "Windows", "Linux (apt)", "a docker container on Linux (dnf)"."""
    from app.messages import cli

    os_words = cli(f"diag_os_{p.os}", lang)
    if p.os in ("linux", "wsl") and p.package_manager:
        os_words = cli("diag_machine_pm", lang, os=os_words, pm=p.package_manager)
    if p.container == "docker_desktop":
        return cli("diag_machine_docker_desktop", lang, os=os_words)
    if p.container:
        return cli("diag_machine_container", lang, os=os_words, container=p.container)
    return os_words


def assumed_line(d, lang: str) -> Optional[str]:
    """Which machine the answer was written for, and why (the text's clues, this machine's facts, or neither)."""
    from app.messages import cli

    p = getattr(d, "platform", None)
    if p is None or not d.matches:
        return None
    clues = ", ".join(cli(f"diag_clue_{c.split(':')[0]}", lang) for c in p.clues)
    kind = "foreign" if p.foreign else p.source
    return cli(f"diag_assumed_{kind}", lang, machine=machine_words(p, lang), clues=clues or "-")


def _shown_env(env: dict) -> str:
    """The step's environment as shown: a proxy's password masked (it stays in the step that runs)."""
    import re

    masked = {k: re.sub(r"//([^:/@]+):[^@/]*@", r"//\1:***@", v) for k, v in env.items()}
    return " ".join(f"{k}={v}" for k, v in masked.items())


def _step_line(s, lang: str, t) -> str:
    from app.install_command import shown_argv
    from app.messages import step_title

    shell = "windows" if getattr(s, "runs_on", "") == "windows" or s.where == "windows" or (s.argv and s.argv[0] and "\\" in s.argv[0][0]) else "linux"
    tag = (t("you_run_it") if s.manual else "") + (t(f"where_{s.where}") if s.where else "")
    sudo = "sudo " if s.needs_root and s.argv and shell == "linux" else ""
    cmds = "; ".join(sudo + shown_argv(a, shell) for a in s.argv)
    env = _shown_env(s.env)
    return f"     - {step_title(s, lang)}" + (f": {tag}{cmds}" if cmds else (f" ({tag.rstrip(': ')})" if tag else "")) + \
        (f" ({env})" if env else "")


def format_text(d, note: Optional[str] = None, lang: str = "en") -> str:
    from app.messages import cli, evidence_text, match_text

    def t(key: str, **p) -> str:
        return cli(f"diag_{key}", lang, **p)

    lines = []
    if note:
        lines.append(t("note", note=note))
    machine = assumed_line(d, lang)
    if machine:
        lines.append(machine)
    info = d.input
    if info.truncated or info.binary or info.decode_errors:
        extra = [t(w) for w, on in (("truncated", info.truncated), ("binary", info.binary), ("decode_errors", info.decode_errors)) if on]
        lines.append(t("input", what=t("sep").join(extra), bytes=info.bytes_read, lines=info.lines_read))
    if not d.matches and not (d.utilization is not None and info.bytes_read == 0):
        code = getattr(d, "message_code", "")
        lines.append(cli(code, lang, **(d.message_params or {})) if code and lang != "en" else d.message)
    for i, m in enumerate(d.matches, 1):
        where = t("line", line=m.line) if m.line else ""
        lines.append(f"{i}. {m.category}" + (f" ({m.subcode})" if m.subcode and m.subcode != m.category else "")
                     + t("confidence", confidence=f"{m.confidence:.2f}", rule=m.rule, where=where))
        lines.append(t("cause", text=match_text(m, "root_cause", lang)))
        if m.evidence:
            lines.append(t("evidence"))
            for e in m.evidence:
                mark = "+" if e.supports else "-"
                said = {"machine": machine_words(d.platform, lang)} if e.code == "foreign_text" and d.platform else {}
                lines.append(f"     {mark} [{e.source}] {evidence_text(e, lang, **said)}")
        lines.append(t("fix", text=match_text(m, "fix", lang)))
        if m.fix_steps:
            lines.append(t("steps"))
            lines += [_step_line(s, lang, t) for s in m.fix_steps]
        if m.commands:
            from app.install_command import shown_argv

            shown = [shown_argv(c, "windows" if c and "\\" in c[0] else "linux") for c in m.commands[:3]]
            lines.append(t("shows_it", commands="  |  ".join(shown)))
    if d.utilization is not None:
        u = d.utilization
        lines.append(t("utilization", summary=u.summary))
        for dim in u.dimensions:
            lines.append(f"  {dim.name}: {dim.status}. {dim.message}")
            for e in dim.evidence:
                lines.append(f"     . {e}")
            if dim.status in ("likely", "possible"):
                lines.append(t("dim_fix", text=dim.fix))
    return "\n".join(lines)


def _recommender(ctx, choices):
    """The pipeline's recommend stage for the facts the diagnosis asks about (this machine's, or the GPU a
    message names), on the compat data without the live index: a paste is answered at once."""
    from app.pipeline import PipelineError, recommend_stage

    def solve(facts):
        try:
            db = ctx.pipeline.db()
        except PipelineError:
            return None
        return recommend_stage(facts, choices, db=db, live=False)

    return solve


def _probe_helps(d, facts) -> bool:
    """Whether this machine's torch can tell more about the text: not when it comes from another machine, nor
    when it names another Python than the one the probe would run."""
    p = d.platform
    if p is None or p.foreign:
        return False
    here = facts.python.path if facts.python is not None else None
    return not p.python or p.python == here


def _in_background(fn, *args):
    """Start fn(*args) in a thread; the returned function waits for its result (its exception is raised there)."""
    import threading

    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    t = threading.Thread(target=work, name="diagnose-detect", daemon=True)
    t.start()

    def wait():
        t.join()
        if "error" in box:
            raise box["error"]
        return box["value"]

    return wait


def run(args, ctx) -> int:
    from app.diagnose.engine import RulesError, diagnose_scan, load_rules
    from app.diagnose.textscan import scan_stream
    from app.commands.base import CliError

    # this machine's facts are read while the text is scanned: detection mostly waits on its commands
    detecting = None if args.no_detect else _in_background(_detect, ctx, False)
    try:
        stream, name = _open_input(args)
        samples = load_samples(args.samples) if args.samples else None
        try:
            rules = load_rules()
        except RulesError as e:
            raise CliError(str(e), 1) from None
        try:
            scan = scan_stream(stream, rules.keywords)
        except OSError as e:
            raise CliError(f"cannot read {name}: {e.strerror or e}", 2) from None
        finally:
            if name not in ("stdin", "text", "none"):
                stream.close()
    finally:
        facts, note = (None, None) if detecting is None else detecting()
    choices = choices_from_args(args)
    recommender = _recommender(ctx, choices)
    d = diagnose_scan(scan, facts, {}, samples=samples, rules=rules, recommender=recommender, choices=choices)
    cats = set(d.categories())
    live: dict[str, Any] = {}
    again = False
    if facts is not None and not args.no_detect:
        t = facts.python.torch if facts.python is not None else None
        if cats & _NEEDS_TORCH and t is None and ctx.snapshot_path is None and _probe_helps(d, facts):
            f2, note2 = _detect(ctx, torch=True)
            if f2 is not None:
                facts, again = f2, True
            note = note or note2
        if "oom" in cats:
            from app.diagnose.live import read_live

            live = read_live(ctx.system)
            again = again or bool(live.get("processes"))
    if again:
        d = diagnose_scan(scan, facts, live, samples=samples, rules=rules, recommender=recommender, choices=choices)
    if ctx.json:
        data = d.to_json()
        if note:
            data["note"] = note
        ctx.emit(data, "")
    else:
        ctx.emit(None, format_text(d, note, ctx.lang))
    return 0
