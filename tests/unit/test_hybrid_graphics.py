"""Hybrid graphics (an Intel or AMD GPU beside one NVIDIA GPU), from public outputs of such machines
(tests/fixtures/real/hybrid/SOURCE.md): detected from lspci and from sysfs/DRM, told which GPU drives the display,
that CUDA needs no PRIME offload, how OpenGL/Vulkan programs get the NVIDIA GPU (PRIME render offload), a PRIME
mode that switched it off, runtime power management; and a plan that keeps the display (never the iGPU's driver
blacklisted: nouveau only)."""
from __future__ import annotations

import re

import pytest

from app import messages
from app.choices import Choices
from app.compat.db import load_db
from app.detect import detect
from app.detect import pci
from app.facts import DriverInfo, Facts, Gpu, GraphicsInfo, OsInfo, PythonEnv
from app.paths import resource
from app.recommend import recommend
from tests.conftest import FIXTURES
from tests.unit.detect_helpers import snapshot

HYB = FIXTURES / "real" / "hybrid"
SHAPES = FIXTURES / "real" / "lspci-shapes"
VENDOR = {"amdgpu": "0x1002", "nvidia": "0x10de", "nouveau": "0x10de", "i915": "0x8086", "Intel": "0x8086", "NVIDIA": "0x10de", "AMD": "0x1002"}


@pytest.fixture(scope="module")
def db():
    return load_db(resource("compat"))


def _lspci(name: str) -> GraphicsInfo:
    path = HYB / name if (HYB / name).exists() else SHAPES / name
    return pci.graphics_info(pci.parse_lspci_nn(path.read_text(encoding="utf-8")), source="lspci")


@pytest.mark.parametrize("name,igpu,nv_class,display,driver", [
    ("lspci-D-nn-amd-rtx3050ti.txt", "AMD Rembrandt", "0300", None, None),  # both VGA: nothing says which drives the panel
    ("lspci-mm-nn-hybrid-rtx3050.txt", "Intel AlderLake-P Integrated Graphics Controller", "0302", "8086", None),
    ("lspci-vmm-nn-hybrid-mx150.txt", "Intel UHD Graphics 620", "0302", "8086", "i915"),  # a 3D controller has no outputs
])
def test_hybrid_laptops_from_their_lspci(name, igpu, nv_class, display, driver):
    g = _lspci(name)
    assert g.hybrid and len(g.nvidia) == 1 and [a.label for a in g.integrated] == [igpu]
    assert g.nvidia[0].class_code == nv_class and g.integrated[0].driver == driver
    shown = g.display_adapter()
    assert (shown.vendor if shown else None) == display


def test_lspci_nnk_gives_the_drivers():
    text = ("00:02.0 VGA compatible controller [0300]: Intel Corporation UHD Graphics 620 [8086:5917] (rev 07)\n"
            "\tSubsystem: Lenovo ThinkPad T480 [17aa:225e]\n\tKernel driver in use: i915\n\tKernel modules: i915\n"
            "01:00.0 3D controller [0302]: NVIDIA Corporation GP108M [GeForce MX150] [10de:1d10] (rev a1)\n"
            "\tKernel driver in use: nouveau\n")
    devs = pci.parse_lspci_nn(text)
    assert [(d.pci_id, d.driver) for d in devs] == [("8086:5917", "i915"), ("10de:1d10", "nouveau")]


def _sysfs_from_renderd(text: str) -> dict:
    """The sysfs files `ls -l /sys/class/drm/renderD*/device/driver` shows: each device's bus id and driver."""
    files, links, buses = {}, {}, []
    for bus, module in re.findall(r"(\d{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d) -> .*?\n(?:.*\n)*?.*module -> .*/module/(\w+)", text):
        base = f"/sys/bus/pci/devices/{bus}"
        buses.append(bus)
        files.update({f"{base}/vendor": VENDOR[module] + "\n", f"{base}/device": "0x0000\n", f"{base}/class": "0x030000\n"})
        links[f"{base}/driver"] = f"../../../bus/pci/drivers/{module}"
    return dict(files=files, dirs={"/sys/bus/pci/devices": buses}, links=links)


def _sysfs_from_connectors(text: str) -> dict:
    """The sysfs files the DRM connector table shows: cardN-<connector>/status, cardN/device, each GPU's vendor."""
    files, links, buses, drm = {}, {}, [], []
    for card_conn, vendor, slot, _node, status in (ln.split() for ln in text.splitlines() if ln.strip()):
        card = card_conn.split("-", 1)[0]
        bus = "0000:" + slot
        if bus not in buses:
            buses.append(bus)
            base = f"/sys/bus/pci/devices/{bus}"
            files.update({f"{base}/vendor": VENDOR[vendor] + "\n", f"{base}/device": "0x0000\n", f"{base}/class": "0x030000\n"})
        drm += [card_conn] + ([card] if card not in drm else [])
        files[f"/sys/class/drm/{card_conn}/status"] = status + "\n"
        links[f"/sys/class/drm/{card}/device"] = f"../../../{bus}"
    return dict(files=files, dirs={"/sys/bus/pci/devices": buses, "/sys/class/drm": drm}, links=links)


def _detect(tree: dict, extra_files: dict | None = None) -> Facts:
    files = {**tree["files"], **(extra_files or {})}
    return detect(snapshot(files=files, dirs=tree["dirs"], links=tree["links"]))


def test_a_muxless_laptop_from_its_drm_connectors_shows_the_intel_gpu_drives_the_panel():
    f = _detect(_sysfs_from_connectors((HYB / "drm-connectors-intel-nvidia-muxless.txt").read_text()))
    g = f.graphics
    assert g.hybrid and g.source == "sysfs"
    assert g.display_adapter().vendor == "8086" and g.display_adapter().connected == ("eDP-1",)
    assert g.nvidia[0].connected == ("DP-1", "HDMI-A-1")  # the external monitors hang off the NVIDIA GPU
    assert "hybrid_graphics" in {x.code for x in f.findings}


def test_an_amd_nvidia_laptop_from_sysfs_gets_its_drivers():
    f = _detect(_sysfs_from_renderd((HYB / "drm-renderD-driver-amd-nvidia.txt").read_text()))
    g = f.graphics
    assert g.hybrid and [(a.bus_id, a.driver) for a in g.adapters] == [("0000:65:00.0", "nvidia"), ("0000:66:00.0", "amdgpu")]
    assert g.display_adapter() is None  # no connector or boot_vga was printed
    fi = next(x for x in f.findings if x.code == "hybrid_graphics")
    assert fi.params["igpu_driver"] == "amdgpu" and "amdgpu" in fi.message


def test_a_server_bmc_vga_is_no_hybrid():
    tree = _sysfs_from_connectors("card0-VGA-1 NVIDIA 01:00.0 renderD128 disconnected\n")
    tree["files"].update({"/sys/bus/pci/devices/0000:03:00.0/vendor": "0x1a03\n", "/sys/bus/pci/devices/0000:03:00.0/class": "0x030000\n"})
    tree["dirs"]["/sys/bus/pci/devices"].append("0000:03:00.0")  # an ASPEED BMC's VGA beside an NVIDIA GPU
    assert not _detect(tree).graphics.hybrid


def _laptop(g: GraphicsInfo, gpu=("NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6"), driver="580.95.05", nouveau=False) -> Facts:
    nv = g.nvidia[0]
    return Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt", kernel="6.8.0-51-generic"),
                 driver=DriverInfo(state="ok", version=driver, kernel_module="open") if driver else DriverInfo(state="not_installed", nouveau_loaded=nouveau),
                 gpus=(Gpu(index=0, name=gpu[0], compute_capability=gpu[1], bus_id=nv.bus_id, is_laptop=True),),
                 python=PythonEnv(path="/usr/bin/python3", version="3.12"), graphics=g)


def test_the_advice_names_the_display_gpu_prime_offload_and_keeps_the_igpu_driver(db):
    g = pci.graphics_info(pci.parse_lspci_nn((SHAPES / "lspci-vmm-nn-hybrid-mx150.txt").read_text()), source="lspci")
    rec = recommend(_laptop(g, ("NVIDIA GeForce MX150", "6.1")), db)
    w = next(w for w in rec.warnings if w.code == "hybrid_graphics")
    assert w.params["display_code"] == "hybrid_display_igpu" and w.params["igpu_driver"] == "i915"
    assert "Intel UHD Graphics 620 drives the display" in w.message and "keep the i915 driver" in w.message
    assert "prime-run <program>" in w.message and "__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia" in w.message
    zh = messages.render("rec", w.code, w.params, "zh_CN")
    assert "__NV_PRIME_RENDER_OFFLOAD=1" in zh and "i915" in zh and "混合显卡" in zh
    assert rec.pytorch.index == "cu126"  # the advice changes nothing of the solve


def test_prime_select_intel_is_caught(db):
    g = _lspci("lspci-mm-nn-hybrid-rtx3050.txt")
    rec = recommend(_laptop(GraphicsInfo(adapters=g.adapters, prime_mode="off"), ("NVIDIA GeForce RTX 3050 Laptop GPU", "8.6")), db)
    w = next(w for w in rec.warnings if w.code == "hybrid_prime_off")
    assert w.severity == "error" and "sudo prime-select on-demand" in w.message
    assert pci.prime_mode("on-demand\n") == "on-demand" and pci.prime_mode("<html>") is None
    for mode in ("on-demand", "on", None):
        rec = recommend(_laptop(GraphicsInfo(adapters=g.adapters, prime_mode=mode)), db)
        assert "hybrid_prime_off" not in {x.code for x in rec.warnings}


@pytest.mark.parametrize("cc,pm,want", [("7.5", None, "runtime_pm_turing"), ("7.5", "on", "runtime_pm_turing"), ("7.5", "auto", None),
                                        ("8.6", "on", "runtime_pm_udev"), ("8.6", "auto", None), ("8.6", None, None), ("6.1", "on", None)])
def test_runtime_power_management_advice(db, cc, pm, want):
    g = _lspci("lspci-mm-nn-hybrid-rtx3050.txt")
    rec = recommend(_laptop(GraphicsInfo(adapters=g.adapters, runtime_pm=pm), ("NVIDIA GeForce GPU", cc)), db)
    w = next((w for w in rec.warnings if w.code == "hybrid_runtime_pm"), None)
    assert (w.params["how_code"] if w else None) == want
    if want == "runtime_pm_turing":
        assert "NVreg_DynamicPowerManagement=0x02" in w.message


def test_a_desktop_or_a_single_gpu_gets_no_hybrid_advice(db):
    g = _lspci("lspci-mm-nn-hybrid-rtx3050.txt")
    lone = GraphicsInfo(adapters=g.nvidia)
    assert not lone.hybrid and "hybrid_graphics" not in {w.code for w in recommend(_laptop(g).replace(graphics=lone), db).warnings}


def test_the_plan_keeps_the_display_working(db):
    """A hybrid laptop with nouveau on the NVIDIA GPU and no NVIDIA driver: the plan blacklists nouveau only, never the
    iGPU's driver (i915, xe, amdgpu), never switches PRIME to the integrated GPU."""
    from app.plan import build_plan

    for name in ("lspci-vmm-nn-hybrid-mx150.txt", "lspci-D-nn-amd-rtx3050ti.txt", "lspci-mm-nn-hybrid-rtx3050.txt"):
        g = _lspci(name)
        f = _laptop(g, driver=None, nouveau=True)
        rec = recommend(f, db)
        assert rec.driver.action == "install" and "hybrid_graphics" in {w.code for w in rec.warnings}
        plan = build_plan(f, rec, Choices())
        contents = "\n".join(e.content or "" for s in plan.steps for e in s.edits)
        argv = [" ".join(c) for s in plan.steps for c in s.commands]
        assert "blacklist nouveau" in contents, name
        assert re.findall(r"blacklist\s+(\S+)", contents) == ["nouveau"], contents
        assert not re.search(r"\b(i915|xe|amdgpu|radeon)\b", contents + "\n".join(argv)), name
        assert not any("prime-select intel" in a or "prime-select off" in a for a in argv)
