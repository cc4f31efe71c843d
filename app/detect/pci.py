"""PCI devices: /sys/bus/pci/devices/* (no tools needed) and `lspci -nn` (a user's paste); every display controller
with the DRM connectors that have a display on them (/sys/class/drm), for hybrid graphics (an Intel/AMD iGPU beside
the NVIDIA GPU)."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from app.lazy_re import compile_later
from app.model import Record, record

SYSFS_PCI = "/sys/bus/pci/devices"
SYSFS_DRM = "/sys/class/drm"
PRIME_DISCRETE = "/etc/prime-discrete"  # Ubuntu's nvidia-prime: "on-demand", "on" (prime-select nvidia), "off" (intel)
IGPU_VENDORS = ("8086", "1002")  # Intel, AMD: the integrated GPU of a hybrid laptop
LSPCI_ARGV = ["lspci", "-nn"]
NVIDIA_VENDOR = "10de"
ATTRS = ("vendor", "device", "subsystem_vendor", "subsystem_device", "class", "current_link_speed",
         "current_link_width", "max_link_speed", "max_link_width")


@record
class PciDevice(Record):
    """One PCI device, as sysfs or lspci describes it."""

    bus_id: str  # "0000:01:00.0"
    vendor: str  # "10de"
    device: str  # "2684"
    class_code: str = ""  # "0300" (VGA), "0302" (3D controller)
    subsystem_vendor: Optional[str] = None
    subsystem_device: Optional[str] = None
    description: str = ""  # lspci's text
    driver: Optional[str] = None  # kernel driver bound (sysfs)
    link_gen_current: Optional[int] = None
    link_gen_max: Optional[int] = None
    link_width_current: Optional[int] = None
    link_width_max: Optional[int] = None
    boot_vga: Optional[bool] = None  # sysfs boot_vga (the firmware's display device)

    @property
    def pci_id(self) -> str:
        return f"{self.vendor}:{self.device}"

    @property
    def is_display(self) -> bool:
        return self.class_code.startswith("03")


_GT_TO_GEN = {"2.5": 1, "5.0": 2, "5": 2, "8.0": 3, "8": 3, "16.0": 4, "16": 4, "32.0": 5, "32": 5, "64.0": 6, "64": 6, "128.0": 7}


def link_gen(speed: Optional[str]) -> Optional[int]:
    """'32.0 GT/s PCIe' → 5; 'Unknown' → None."""
    m = re.match(r"\s*([0-9.]+)\s*GT/s", speed or "")
    return _GT_TO_GEN.get(m.group(1)) if m else None


def _hex(v: Optional[str], width: int = 4) -> Optional[str]:
    v = (v or "").strip().lower()
    if v.startswith("0x"):
        v = v[2:]
    return v.zfill(width) if re.fullmatch(r"[0-9a-f]+", v or "-") else None


def _int(v: Optional[str]) -> Optional[int]:
    v = (v or "").strip()
    return int(v) if v.isdigit() else None


def parse_sysfs_device(bus_id: str, attrs: dict[str, Optional[str]], driver_link: Optional[str] = None) -> Optional[PciDevice]:
    vendor, device = _hex(attrs.get("vendor")), _hex(attrs.get("device"))
    if not vendor or not device:
        return None
    cls = _hex(attrs.get("class"), 6) or ""
    return PciDevice(
        bus_id=bus_id, vendor=vendor, device=device, class_code=cls[:4],
        subsystem_vendor=_hex(attrs.get("subsystem_vendor")), subsystem_device=_hex(attrs.get("subsystem_device")),
        driver=driver_link.rstrip("/").rsplit("/", 1)[-1] if driver_link else None,
        link_gen_current=link_gen(attrs.get("current_link_speed")), link_gen_max=link_gen(attrs.get("max_link_speed")),
        link_width_current=_int(attrs.get("current_link_width")), link_width_max=_int(attrs.get("max_link_width")),
        boot_vga={"1": True, "0": False}.get((attrs.get("boot_vga") or "").strip()),
    )


def read_sysfs_displays(system) -> Optional[list[PciDevice]]:
    """Every display controller (class 03xx) of NVIDIA, Intel and AMD from sysfs; None when sysfs is not there
    (snapshot, Windows). Other vendors' devices are passed over after their vendor file (a BMC's VGA is no iGPU)."""
    entries = system.list_dir(SYSFS_PCI)
    if entries is None:
        return None
    out: list[PciDevice] = []
    for bus in entries:
        base = f"{SYSFS_PCI}/{bus}"
        vendor = _hex(system.read_text(f"{base}/vendor"))
        if vendor != NVIDIA_VENDOR and vendor not in IGPU_VENDORS:
            continue
        cls = system.read_text(f"{base}/class")
        if not (_hex(cls, 6) or "").startswith("03"):
            continue  # audio, USB-C controllers on the same card; the host bridges of an Intel or AMD CPU
        names = ATTRS if vendor == NVIDIA_VENDOR else ("vendor", "device", "class", "subsystem_vendor", "subsystem_device")
        attrs = {a: system.read_text(f"{base}/{a}") for a in (*names, "boot_vga")}
        dev = parse_sysfs_device(bus, attrs, system.readlink(f"{base}/driver"))
        if dev:
            out.append(dev)
    return out


def read_sysfs_nvidia(system) -> Optional[list[PciDevice]]:
    """NVIDIA display devices from sysfs; None when sysfs is not there (snapshot, Windows)."""
    devs = read_sysfs_displays(system)
    return None if devs is None else nvidia_display(devs)


def read_drm_connected(system) -> dict[str, tuple[str, ...]]:
    """PCI bus id -> the DRM connectors with a display on them (/sys/class/drm/cardN-<connector>/status "connected";
    cardN/device names the PCI device): which GPU the screens hang off."""
    out: dict[str, list[str]] = {}
    for name in system.list_dir(SYSFS_DRM) or []:
        m = re.fullmatch(r"card(\d+)-([A-Za-z0-9-]+)", name)
        if not m or (system.read_text(f"{SYSFS_DRM}/{name}/status") or "").strip() != "connected":
            continue
        link = system.readlink(f"{SYSFS_DRM}/card{m.group(1)}/device") or ""
        bus = link.rstrip("/").rsplit("/", 1)[-1].lower()
        if re.fullmatch(r"[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", bus):
            out.setdefault(bus, []).append(m.group(2))
    return {k: tuple(sorted(v)) for k, v in out.items()}


def prime_mode(text: Optional[str]) -> Optional[str]:
    """/etc/prime-discrete as nvidia-prime writes it ("on-demand", "on", "off"); anything else: None."""
    v = (text or "").strip().lower()
    return v if v in ("on-demand", "on", "off") else None


def graphics_info(devs: list[PciDevice], connected: Optional[dict[str, tuple[str, ...]]] = None, prime: Optional[str] = None,
                  runtime_pm: Optional[str] = None, source: str = ""):
    """Facts.graphics from the display controllers seen (sysfs or an lspci paste) and their connected displays."""
    from app.facts import DisplayAdapter, GraphicsInfo

    con = connected or {}
    adapters = tuple(DisplayAdapter(bus_id=d.bus_id, vendor=d.vendor, device=d.device, class_code=d.class_code, driver=d.driver,
                                    boot_vga=d.boot_vga, connected=con.get(d.bus_id, ()),
                                    name=lspci_model_name(d.description) or d.description)
                     for d in devs if d.is_display and (d.vendor == NVIDIA_VENDOR or d.vendor in IGPU_VENDORS))
    pm = (runtime_pm or "").strip() or None
    return GraphicsInfo(adapters=adapters, prime_mode=prime, runtime_pm=pm if pm in ("auto", "on") else None, source=source)


# A device line, found anywhere in the line (a prompt, a log timestamp or a list bullet before it), with or
# without its slot ("01:00.0 " is missing when a paste went through cut or a forum quote).
_LSPCI = compile_later(
    r"(?:^|\s)(?:(?P<bus>(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+)?"
    r"(?P<cls_name>[A-Za-z][A-Za-z0-9 /-]*?)\s*\[(?P<cls>[0-9a-fA-F]{4})\]:\s*"
    r"(?P<desc>.*?)\s*\[(?P<ven>[0-9a-fA-F]{4}):(?P<dev>[0-9a-fA-F]{4})\](?:\s*\(rev (?P<rev>[0-9a-fA-F]+)\))?"
    r"(?:\s*\(prog-if [0-9a-fA-F]{2}(?: \[[^\]]*\])?\))?\s*$")  # `lspci -vnn` adds "(prog-if 00 [VGA controller])"
# `lspci -mm -nn`: slot "Class [cccc]" "Vendor [vvvv]" "Device [dddd]" -rXX -pXX "SVendor [ssss]" "SDevice [ssss]"
_LSPCI_MM = compile_later(r'^(?P<bus>(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])\s+"(?P<cls_name>[^"]*?)\s*\[(?P<cls>[0-9a-fA-F]{4})\]"'
                       r'\s+"(?P<vname>[^"]*?)\s*\[(?P<ven>[0-9a-fA-F]{4})\]"\s+"(?P<desc>[^"]*?)\s*\[(?P<dev>[0-9a-fA-F]{4})\]"'
                       r'(?P<rest>.*)$')
_SUB_MM = compile_later(r'"[^"]*?\[(?P<sv>[0-9a-fA-F]{4})\]"\s+"[^"]*?\[(?P<sd>[0-9a-fA-F]{4})\]"\s*$')
# `lspci -vmm -nn`: records of "Key:<TAB>value" lines, a blank line between devices
_VMM_FIELD = compile_later(r"^(Slot|Class|Vendor|Device|SVendor|SDevice|Driver):\s*(.*?)\s*$")
_BRACKET_ID = compile_later(r"^(?P<name>.*?)\s*\[(?P<id>[0-9a-fA-F]{4})\]$")


_KERNEL_DRIVER = compile_later(r"^\s+Kernel driver in use:\s*([A-Za-z0-9_-]+)\s*$")


def _bus(bus: str) -> str:
    return ("0000:" + bus if bus.count(":") == 1 else bus).lower()


def _parse_vmm(text: str) -> list[PciDevice]:
    out: list[PciDevice] = []
    for block in re.split(r"\n\s*\n", text):
        f: dict[str, str] = {}
        for line in block.splitlines():
            m = _VMM_FIELD.match(line.strip())
            if m:
                f.setdefault(m.group(1), m.group(2))
        ids = {k: _BRACKET_ID.match(f.get(k, "")) for k in ("Class", "Vendor", "Device", "SVendor", "SDevice")}
        c, v, d = ids["Class"], ids["Vendor"], ids["Device"]
        if not (f.get("Slot") and c and v and d):
            continue
        sv, sd = ids["SVendor"], ids["SDevice"]
        out.append(PciDevice(bus_id=_bus(f["Slot"]), vendor=v.group("id").lower(), device=d.group("id").lower(),
                             class_code=c.group("id").lower(), description=f"{v.group('name')} {d.group('name')}".strip(),
                             subsystem_vendor=sv.group("id").lower() if sv else None, subsystem_device=sd.group("id").lower() if sd else None,
                             driver=f.get("Driver") or None))
    return out


def parse_lspci_nn(text: str) -> list[PciDevice]:
    """Every device of `lspci -nn` (also `-vnn`/`-nnk` with their detail lines, `-mm -nn` and `-vmm -nn`, the
    machine-readable shapes of lspci(8)); lines that are not device lines are skipped."""
    text = text or ""
    if re.search(r"^Slot:\s", text, re.M) and re.search(r"^Class:\s", text, re.M):
        return _parse_vmm(text)
    out: list[PciDevice] = []
    for line in text.splitlines():
        k = _KERNEL_DRIVER.match(line)
        if k and out:  # `lspci -nnk`: the driver bound to the device line above
            out[-1] = replace(out[-1], driver=k.group(1))
            continue
        mm = _LSPCI_MM.match(line.strip())
        if mm:
            sub = _SUB_MM.search(mm.group("rest"))
            out.append(PciDevice(bus_id=_bus(mm.group("bus")), vendor=mm.group("ven").lower(), device=mm.group("dev").lower(),
                                 class_code=mm.group("cls").lower(), description=f"{mm.group('vname')} {mm.group('desc')}".strip(),
                                 subsystem_vendor=sub.group("sv").lower() if sub else None,
                                 subsystem_device=sub.group("sd").lower() if sub else None))
            continue
        m = _LSPCI.search(line.strip())
        if not m:
            continue
        bus = m.group("bus") or ""  # "": the paste had no slot
        if bus.count(":") == 1:
            bus = "0000:" + bus
        out.append(PciDevice(bus_id=bus.lower(), vendor=m.group("ven").lower(), device=m.group("dev").lower(),
                             class_code=m.group("cls").lower(), description=m.group("desc").strip()))
    return out


def nvidia_display(devs: list[PciDevice]) -> list[PciDevice]:
    return [d for d in devs if d.vendor == NVIDIA_VENDOR and d.is_display]


def lspci_model_name(description: str) -> Optional[str]:
    """'NVIDIA Corporation GA106 [GeForce RTX 3060 Lite Hash Rate]' → 'GeForce RTX 3060 Lite Hash Rate';
    'NVIDIA Corporation Device 2c02' → None."""
    m = re.search(r"\[([^\]]+)\]\s*$", description or "")
    return m.group(1) if m else None
