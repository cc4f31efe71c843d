"""The text cleaner (app.diagnose.textscan) strips what log tools add and undoes their escapes, and
never removes what a rule needs: every literal a rule's patterns spell (derived here from the rule
base itself, so a new rule is covered without editing this file) survives every prefix form."""
from __future__ import annotations

import re

import pytest

from app.diagnose.engine import load_rules
from app.diagnose.textscan import Window

try:  # Python 3.11+
    import re._parser as sre_parse  # type: ignore[import-not-found]
    from re._constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore
except ImportError:  # Python 3.10
    import sre_parse  # type: ignore[no-redef]
    from sre_constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore

# how log tools prefix a line (each a real form: dmesg, journalctl, syslog, CI, docker compose, CRI,
# torchrun, glog/TF, kohya's log column, buildkit, rich's traceback box, e-mail quoting, ANSI colour)
PREFIXES = [
    "",
    "[   12.345678] ",
    "[Fri Aug 30 11:43:09 2024] ",
    "Jun 30 11:07:05 gpu-0 kernel: ",
    "Aug 04 19:34:09 linux-tuxedo dkms.systemd[1627]: ",
    "kernel: ",
    "2024-05-01T10:00:00.1234567Z ",
    "2021-10-13 17:19:29.385716: ",
    "2024-01-01T10:00:00.123456789Z stderr F ",
    "api-1  | ",
    "[pod/nvidia-driver-daemonset-zpg9q/nvidia-driver-ctr] ",
    "##[error]",
    "[rank3]: ",
    "(RayWorker pid=4242) ",
    "E0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] ",
    "17:22:50-122539 ERROR    ",
    "#12 3.595 ",
    "\u2502 ",
    "> ",
    "\x1b[31m",
    "#033[0;1;31m",
]


def _literals(node, out: list[str]) -> None:
    """Runs of literal characters a compiled pattern requires, walking groups and alternatives."""
    run = ""
    for op, av in node:
        if op is LITERAL:
            run += chr(av)
            continue
        if len(run) >= 4:
            out.append(run)
        run = ""
        if op is SUBPATTERN:
            _literals(av[-1], out)
        elif op is BRANCH:
            for alt in av[1]:
                _literals(alt, out)
        elif op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1:
            _literals(av[2], out)
        elif op is IN:
            pass
    if len(run) >= 4:
        out.append(run)


def rule_identifiers() -> list[tuple[str, str]]:
    """(rule id, literal) for every literal of at least 4 characters with a letter in it, from the
    patterns, keywords and identifiers of every rule."""
    seen = set()
    out = []
    for r in load_rules().rules:
        lits: list[str] = list(r.keywords) + list(r.identifiers)
        for p in r.patterns:
            _literals(sre_parse.parse(p.pattern, re.IGNORECASE), lits)
        for lit in lits:
            lit = re.sub(r"\s+", " ", lit).strip()
            if len(lit) >= 4 and re.search(r"[a-z]", lit, re.I) and (r.id, lit.lower()) not in seen:
                seen.add((r.id, lit.lower()))
                out.append((r.id, lit))
    return out


IDENTS = rule_identifiers()


def test_identifiers_are_derived_from_the_rules():
    got = {lit.lower() for _, lit in IDENTS}
    assert len(IDENTS) > 150
    for must in ("nvrm: api mismatch", "cudnn_status_not_supported", "cuda_error_unknown", "libcudnn"):
        assert any(must in g for g in got), must


@pytest.mark.parametrize("prefix", PREFIXES, ids=[repr(p) for p in PREFIXES])
def test_the_cleaner_keeps_every_rule_identifier(prefix):
    lost = []
    for rid, lit in IDENTS:
        norm = Window(1, [prefix + lit + " (tail)"]).normalised.lower()
        if lit.lower() not in norm:
            lost.append((rid, lit, norm))
    assert not lost, lost[:10]


def test_a_kernel_message_keeps_its_nvrm_tag_and_reads_as_one_sentence():
    forms = [
        "Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: "
        "this kernel module has the version 530.30.02.  Please#012NVRM: make sure",
        "[   12.014918] NVRM: API mismatch: the client has the version 570.153.02, but\n"
        "               NVRM: this kernel module has the version 570.144.  Please",
        "Aug 26 14:08:07 host kernel: NVRM: API mismatch: the client has the version 367.44, but\n"
        "                                      NVRM: this kernel module has the version 367.35.  Please",
    ]
    for text in forms:
        norm = Window(1, text.split("\n")).normalised
        assert norm.startswith("NVRM: API mismatch: the client has the version "), norm
        assert "but this kernel module has the version " in norm, norm
        assert norm.count("NVRM:") == 1, norm


def test_separate_kernel_messages_each_keep_their_identifier():
    text = ("[24128.828315] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000000 intr 00004000.\n"
            "[24128.834365] NVRM: Xid (PCI:0000:01:00): 31, Ch 00000003, engmask 00000101, intr 10000000")
    norm = Window(1, text.split("\n")).normalised
    assert norm.count("NVRM: Xid (PCI:0000:01:00)") == 2, norm


def test_escapes_and_paths_are_undone():
    cases = {
        # repr-escaped container error (docker prints the hook's stderr escaped twice)
        'stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=10.2, please update\\\\n\\"': "unsatisfied condition: cuda>=10.2, please update",
        # Windows path: separators read as POSIX, so one pattern covers both
        r'Error loading "D:\python\lib\site-packages\torch\lib\cudnn64_9.dll" or one': 'Error loading "D:/python/lib/site-packages/torch/lib/cudnn64_9.dll" or one',
        # ANSI colours, real and written out by journald
        "\x1b[1;31mRuntimeError\x1b[0m: CUDA error": "RuntimeError: CUDA error",
        "\\x1b[31mERROR\\x1b[0m: boom": "ERROR: boom",
        # syslog's escaped tab and newline
        "a#011b#012c": "a b c",
    }
    for raw, want in cases.items():
        norm = Window(1, [raw]).normalised
        assert want in norm and "\\" not in norm and "\x1b" not in norm, (raw, norm)


def test_a_windows_path_with_backslash_n_is_not_split():
    norm = Window(1, [r"C:\nvidia\bin\nvcc.exe not found"]).normalised
    assert norm == "C:/nvidia/bin/nvcc.exe not found", norm


def test_line_numbers_survive_cleaning():
    lines = ["[ 1.0] first", "", "\x1b[0m", "Jun 30 11:07:05 h kernel: NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus."]
    w = Window(5, lines)
    pos = w.normalised.index("Xid")
    assert w.line_at(pos) == 8
    assert w.line_at(w.tight.index("Xid"), tight=True) == 8


# --- error numbers and localised OS messages get their stable names (textscan.annotate) ---
from app.diagnose.textscan import CUDA_ERROR_NAMES, annotate  # noqa: E402


@pytest.mark.parametrize("line,name", [
    ("CUDA failure 35: see log", "cudaErrorInsufficientDriver"),          # onnxruntime (roop-unleashed #465)
    ("luajit: cuda runtime error (35) : at THCGeneral.c:16", "cudaErrorInsufficientDriver"),  # cutorch #318
    ("cudaSetDevice err: 35", "cudaErrorInsufficientDriver"),             # ollama (nixpkgs #349617)
    ("cuInit returned 100", "CUDA_ERROR_NO_DEVICE"),
    ("cuda driver library init failure: 999.", "CUDA_ERROR_UNKNOWN"),      # ollama #12352's wording
    ("CUDA Error 209", "cudaErrorNoKernelImageForDevice"),
    ("cuda driver library failed to get device context 46time=2024-12-31", "cudaErrorDevicesUnavailable"),  # ollama #8271
    ("cudart device memory info lookup failure 2", "cudaErrorMemoryAllocation"),  # ollama #3550
])
def test_cuda_error_numbers_get_their_names(line, name):
    assert name in annotate(line)
    assert annotate(line).startswith(line)  # the line itself is kept


@pytest.mark.parametrize("line", [
    "current status: 3", "Current error 2", "CUDA error 2.5 GB", "error 35", "Error code 35 in foo.py line 35",
    "code=35(cudaErrorInsufficientDriver)",  # already named: nothing added
    "CUDA error 404",  # not a CUDA error number
])
def test_numbers_without_a_cuda_error_context_are_left_alone(line):
    assert annotate(line) == line


def test_every_named_cuda_error_number_is_an_identifier_some_rule_knows():
    from app.diagnose import load_rules
    known = {k for r in load_rules().rules for k in (*r.identifiers, *r.keywords)}
    for code, names in CUDA_ERROR_NAMES.items():
        if code in (3,):  # initialisation error: a symptom of several causes, no single rule
            continue
        assert any(n.lower() in known for n in names), (code, names)


@pytest.mark.parametrize("line,english", [
    ('OSError: [WinError 126] 找不到指定的模块。 Error loading "x.dll"', "The specified module could not be found."),
    ("OSError: [WinError 127] 找不到指定的程序。", "The specified procedure could not be found."),
    ("bash: /usr/bin/nvidia-smi: 权限不够", "Permission denied"),
    ("libcuda.so.1: 无法打开共享对象文件: 没有那个文件或目录", "cannot open shared object file"),
    ("bash: nvcc：未找到命令", "nvcc: command not found"),
    ("找不到命令 “nvcc”，但可以通过以下软件包安装它：", "nvcc: command not found"),
])
def test_chinese_os_messages_get_the_english_the_rules_know(line, english):
    assert english in annotate(line) and annotate(line).startswith(line)


def test_chinese_command_not_found_is_diagnosed_like_the_english():
    from app.diagnose import diagnose
    zh = diagnose("$ nvcc --version\nbash: nvcc：未找到命令\n")
    en = diagnose("$ nvcc --version\nbash: nvcc: command not found\n")
    assert en.matches and zh.matches and zh.matches[0].category == en.matches[0].category == "nvcc_not_found"


@pytest.mark.parametrize("line,name", [
    ("'nvidia-smi' n\ufffdo \ufffd reconhecido como um comando interno", "nvidia-smi"),  # vscodenpa/testissues #32300
    ("nvidia-smi 不是内部或外部命令，也不是可运行的程序", "nvidia-smi"),                       # SPMC_VideoSR #2
    ("\"nvcc\" no se reconoce como un comando interno o externo,", "nvcc"),
    ("'nvcc.exe' n'est pas reconnu en tant que commande interne", "nvcc"),
])
def test_cmd_not_recognized_in_other_languages_gets_the_english(line, name):
    assert f"'{name}' is not recognized as an internal or external command" in annotate(line)


def test_a_localised_not_recognized_nvcc_is_diagnosed_like_the_english():
    from app.diagnose import diagnose
    en = diagnose("C:\\> nvcc --version\n'nvcc' is not recognized as an internal or external command,\n")
    es = diagnose("C:\\> nvcc --version\n\"nvcc\" no se reconoce como un comando interno o externo,\n")
    assert en.matches and es.matches and es.matches[0].category == en.matches[0].category


def test_a_script_quoting_an_error_message_is_not_the_error_but_its_traceback_is():
    """A verify script in a playbook (tests/fixtures/real/fleet-h200/fleet-plan.yml) holds
    `sys.exit("... torch.cuda.is_available() is False")`: source, not output. A traceback shows
    such a source line and then the error itself, which still counts."""
    from app.diagnose import diagnose
    src = ('if not torch.cuda.is_available():\n'
           '    sys.exit("torch cannot use the GPU: torch.cuda.is_available() is False")\n')
    assert not diagnose(src).matches
    tb = ('Traceback (most recent call last):\n  File "check.py", line 3, in <module>\n'
          '    raise RuntimeError("torch.cuda.is_available() is False")\n'
          'RuntimeError: torch.cuda.is_available() is False\n')
    d = diagnose(tb)
    assert d.matches and d.matches[0].category == "cuda_unavailable" and d.matches[0].line == 4
