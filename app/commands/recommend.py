"""`gpu-wizard recommend [--json]`: the driver, CUDA toolkit, cuDNN and PyTorch build that will
work on this machine (or a snapshot, or an assumed machine), and why."""
from __future__ import annotations

from typing import Literal, Optional

from app.messages import cli, say, word
from app.recommendation import Recommendation

HELP = "recommend the driver, CUDA toolkit, cuDNN and PyTorch build for this machine, with reasons"


def add_arguments(parser) -> None:
    from app.config import add_mirror_arguments

    parser.add_argument("--python", metavar="PATH", help="the target Python interpreter (default: the first found)")
    parser.add_argument("--torch-version", metavar="V", help="use this PyTorch release (e.g. 2.9 or 2.9.1); refused with a reason if it cannot work")
    parser.add_argument("--variant", metavar="INDEX", help="use this PyTorch build: cu126, cu128, cu130, ... or cpu")
    parser.add_argument("--no-torchvision", action="store_true", help="install torch alone (allows a release whose torchvision is not out yet)")
    parser.add_argument("--toolkit", action="store_true", help="also install the CUDA toolkit (nvcc), for building extensions")
    parser.add_argument("--system-cudnn", action="store_true", help="also install cuDNN as a system package matching the toolkit")
    parser.add_argument("--method", choices=("apt", "dnf", "runfile"), help="how the toolkit is installed (default: the distribution's package manager)")
    parser.add_argument("--installer", choices=("pip", "uv"), default="pip", help="Python package installer (default: pip)")
    parser.add_argument("--keep-driver", action="store_true", help="never install or upgrade the driver")
    parser.add_argument("--list", action="store_true", help="list every PyTorch release and build for this OS, judged for this machine")
    parser.add_argument("--offline", action="store_true", help="do not read the live PyTorch/PyPI/NVIDIA indexes: answer from the compat data")
    parser.add_argument("--db", metavar="PATH", help="compat data (a folder of tables or a bundle file) instead of the installed one")
    add_mirror_arguments(parser)


def build_choices(args, facts):
    """Choices from the flags and the config file (mirrors, proxy, CA bundle)."""
    from app.choices import Choices
    from app.commands.base import CliError
    from app.config import ConfigError, mirrors_from_args

    try:
        mirrors, _cfg = mirrors_from_args(args)
    except ConfigError as e:
        raise CliError(str(e), 2) from None
    method: Optional[Literal["apt", "dnf", "runfile"]] = getattr(args, "method", None)  # argparse's choices
    if method is None:
        pm = facts.os.package_manager
        method = "dnf" if pm in ("dnf", "yum") else "apt"
    return Choices(
        torch_version=getattr(args, "torch_version", None),
        torch_variant=getattr(args, "variant", None),
        python_version=getattr(args, "python_version", None),
        want_toolkit=bool(getattr(args, "toolkit", False)),
        want_torchvision=not getattr(args, "no_torchvision", False),
        want_system_cudnn=bool(getattr(args, "system_cudnn", False)),
        install_driver=not getattr(args, "keep_driver", False),
        install_method=method,
        installer=getattr(args, "installer", None) or "pip",
        mirrors=mirrors,
    )


def render(rec: Recommendation, lang: str = "en") -> str:
    """The human text of `recommend`, in `lang`: the catalogue's words, the engine's figures."""
    def t(key: str, **p) -> str:
        return cli(f"rec_{key}", lang, **p)

    def why(part) -> str:
        return say("rec", part.reason_code, part.reason_params, lang, part.reason)

    t_, d, k, c = rec.pytorch, rec.driver, rec.cuda_toolkit, rec.cudnn
    out = []
    if t_.version:
        out.append(t("pytorch", version=t_.version, index=t_.index, cuda=t("cuda", cuda=t_.cuda_runtime) if t_.cuda_runtime else ""))
    else:
        out.append(t("pytorch_none"))
    if t_.reason:
        out.append(f"          {why(t_)}")
    if t_.command:
        out.append(t("install", command=t_.command))
        out.append(t("with_uv", command=t_.uv_command))
    line = t("driver", action=t(f"driver_{d.action}"))
    if d.package:
        line += f" -> {d.package}"
    if d.min_version:
        line += t("needs", version=d.min_version)
    out.append(line)
    if d.reason:
        out.append(f"          {why(d).strip()}")
    if k.version:
        out.append(t("toolkit", version=k.version, state=t("wanted") if k.wanted else t("optional"))
                   + (f" -> {k.package}" if k.package else ""))
    else:
        out.append(t("toolkit_none"))
    if k.reason:
        out.append(f"          {why(k)}")
    if c.version:
        out.append(t("cudnn_wheel", version=c.version) if c.source == "wheel" else t("cudnn_system", version=c.version, package=c.package or ""))
    if rec.warnings:
        out.append("")
        out.append(t("warnings"))
        for w in rec.warnings:
            out.append(f"  [{word('severity', w.severity, lang)}] {say('rec', w.code, w.params, lang, w.message)} ({w.code})")
    if rec.refused:
        out.append("")
        out.append(t("refused"))
        detail = rec.refused_detail if len(rec.refused_detail) == len(rec.refused) else ()
        for i, r in enumerate(rec.refused):
            out.append(f"  - {say('rec', detail[i].code, detail[i].params, lang, r) if detail else r}")
    if rec.alternatives:
        out.append("")
        out.append(t("alternatives"))
        for a in rec.alternatives:
            out.append(f"  {a.rank}. {a.torch_version}+{a.index}: {say('rec', a.reason_code, a.reason_params, lang, a.reason)}")
    out.append("")
    out.append(t("db", version=rec.db_version))
    return "\n".join(out)


def run(args, ctx) -> int:
    facts = ctx.facts()
    choices = build_choices(args, facts)
    rec = ctx.recommendation(choices)  # app.pipeline: the same solve `plan` and `install` build on
    if getattr(args, "list", False):
        from app.recommend import torch_options

        opts = torch_options(facts, ctx.pipeline.db(), choices, rec)
        lines = [f"{'*' if o.recommended else ' '} {o.torch_version:8} {o.index:6} {o.status:13} "
                 f"{say('rec', o.reason_code, o.reason_params, ctx.lang, o.reason)}" for o in opts]
        ctx.emit({"options": [o.to_json() for o in opts], "recommended": {"version": rec.pytorch.version, "index": rec.pytorch.index}},
                 "\n".join(lines) + "\n" + cli("rec_list_legend", ctx.lang))
        return 0
    ctx.emit(rec.to_json(), render(rec, ctx.lang))
    return 0
