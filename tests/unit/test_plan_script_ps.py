"""The Windows plan as PowerShell: quoting that nothing in a plan can escape, admin gating, edits backed up."""
from app.plan.model import Edit, Plan, Step
from app.plan.script_ps import plan_to_powershell, ps_quote


def test_ps_quote_never_lets_text_become_code():
    assert ps_quote("plain") == "'plain'"
    assert ps_quote("it's") == "'it''s'"
    evil = "x'; Remove-Item C:\\ -Recurse; '$(calc)"
    q = ps_quote(evil)
    # one literal: starts and ends with a quote, and every inner quote is doubled
    inner = q[1:-1]
    assert q[0] == q[-1] == "'" and "'" not in inner.replace("''", "")
    assert ps_quote("C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe").startswith("'C:\\Program Files")


def test_admin_steps_are_gated_and_commands_listed():
    plan = Plan(platform="windows", steps=(
        Step(id="update_wsl", title="Update WSL", why="newer kernel", commands=(("wsl.exe", "--update"),), needs_root=True, kind="windows_host"),
        Step(id="check_gpu_in_wsl", title="Check", why="see the GPU", commands=(("wsl.exe", "-d", "Ubuntu 24.04", "--", "nvidia-smi"),), kind="windows_host"),
    ))
    text = plan_to_powershell(plan)
    gate = text.index("if (-not $IsAdmin)")
    assert gate < text.index("Invoke-Step 'wsl.exe' @('--update')")
    assert "Invoke-Step 'wsl.exe' @('-d', 'Ubuntu 24.04', '--', 'nvidia-smi')" in text
    assert text.count("if (-not $IsAdmin)") == 1  # only the admin step


def test_edits_are_backed_up_before_they_change_anything():
    e = Edit(path="C:\\Users\\alex\\.wslconfig", mode="append", content="[wsl2]\nmemory=16GB\n")
    plan = Plan(platform="windows", steps=(Step(id="configure_wsl_memory", title="Memory", why="room", edits=(e,), kind="windows_host"),))
    text = plan_to_powershell(plan)
    backup = text.index("Copy-Item -LiteralPath 'C:\\Users\\alex\\.wslconfig'")
    assert backup < text.index("Add-Content -LiteralPath 'C:\\Users\\alex\\.wslconfig'")
