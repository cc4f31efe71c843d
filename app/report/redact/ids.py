"""Identifiers: GPU and other UUIDs, serial numbers, machine and instance ids, GPU fabric and
InfiniBand ids, and Windows security identifiers (SIDs: a machine's or a domain's account ids,
`S-1-5-21-<machine>-<rid>`, Azure AD's `S-1-12-1-...`; the short well-known ones such as
S-1-5-18 or S-1-5-32-544 name no one and stay)."""
from __future__ import annotations

import re

from .common import Learner, Text

_HEX = "[0-9a-fA-F]"
_UUID_BODY = rf"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}"
RE_GPU_UUID = re.compile(rf"(?<![\w-])(?:GPU|MIG)-(?:GPU-)?{_UUID_BODY}(?![\w-])")
RE_UUID = re.compile(rf"(?<![\w-]){_UUID_BODY}(?![\w-])")
RE_SID = re.compile(r"(?i)(?<![\w-])S-1-\d{1,14}(?:-\d{1,10}){3,14}(?![\w-])")
RE_SERIAL = re.compile(r"(?im)\b((?:(?:board|product|chassis|gpu|module|system)[ _])?serial(?:[ _]?(?:number|no\.?))?|GPU PDI)"
                       r"(\s*[:=]\s*)\"?([A-Za-z0-9][A-Za-z0-9_\-./]{2,63})")
SERIAL_IGNORE = frozenset({"n/a", "na", "none", "0", "00000000", "not specified", "to be filled by o.e.m.",
                           "default string", "system serial number", "unknown", "[n/a]", "not supported",
                           "[not supported]", "0123456789", "chassis serial number", "base board serial number"})
# machine and instance ids (systemd machine-id, D-Bus, DMI product_uuid, Windows MachineGuid, cloud ids)
RE_MACHINE_ID = re.compile(
    r"(?i)\b(?:machine[-_ ]?id|boot[-_ ]?id|MachineGuid|product[-_ ]?uuid|system[-_ ]?uuid|hardware[-_ ]?uuid|hostid"
    r"|instance[-_ ]?id|dbus[-_ ]?id|vm[-_ ]?id|device[-_ ]?id)\b[\"']?[ \t]*(?:[:=]|REG_SZ)?[ \t]*[\"']?"
    r"((?:\{)?[0-9A-Fa-f]{8}(?:-?[0-9A-Fa-f]{4}){3}-?[0-9A-Fa-f]{12}(?:\})?|[0-9A-Fa-f]{8,64}|i-[0-9a-f]{8,17})(?![\w-])")
_MACHINE_WORDS = ("machine", "boot", "product", "system", "hardware", "hostid", "instance", "dbus", "vm", "device")
MACHINE_ID_FILES = ("machine-id", "product_uuid", "boot_id", "hostid", "product_serial", "board_serial", "chassis_serial")
# GPU fabric / NVLink cluster / InfiniBand ids (nvidia-smi -q "Fabric", ibstat GUIDs, NVML fields)
RE_FABRIC = re.compile(
    r"(?im)\b(Cluster[ _]?UUID|Clique[ _]?ID|Fabric[ _]?(?:GUID|ID|UUID)|Partition[ _]?ID|Host[ _]?ID|Node[ _]?GUID"
    r"|Port[ _]?GUID|System[ _]?image[ _]?GUID|Sys[ _]?Image[ _]?GUID|Platform[ _]?UUID|Chassis[ _]?Serial(?:[ _]?Number)?)"
    r"\b[\"']?[ \t]*[:=][ \t]*[\"']?((?:0x)?[0-9A-Za-z][0-9A-Za-z:._-]{2,127})")
_FABRIC_WORDS = ("cluster", "clique", "fabric", "partition", "host", "node", "port", "image", "platform", "chassis")
FABRIC_KEYS = frozenset({"clusteruuid", "cliqueid", "fabricguid", "fabricid", "fabricuuid", "nodeguid", "portguid",
                         "systemimageguid", "hostid", "partitionid", "platformuuid", "chassisserialnumber"})
NOT_A_VALUE = frozenset({"n/a", "na", "none", "unknown", "not supported", "[not supported]", "not available", "0", "0x0",
                         "disabled", "enabled", "true", "false", "null", "-", "00000000-0000-0000-0000-000000000000"})


def learn_pieces(r: Learner, t: Text, gpu_bodies: set[str]) -> None:
    dashed = t.having("-", 3)
    if not dashed:
        return
    joined = "\n".join(dashed)
    if "PU-" in joined or "IG-" in joined:
        gpus = list(dict.fromkeys(RE_GPU_UUID.findall(joined)))
        r.add_all("gpu-uuid", gpus, patterned=True)
        gpu_bodies.update(g[-36:].lower() for g in gpus)
    uuids = r.unknown(dict.fromkeys(RE_UUID.findall(joined)))
    r.add_all("uuid", [u for u in uuids if u.lower() not in gpu_bodies] if gpu_bodies else uuids, patterned=True, fresh=True)
    if "s-1-" in joined or "S-1-" in joined:
        r.add_all("sid", RE_SID.findall(joined), patterned=True)


def learn_context(r: Learner, t: Text) -> None:
    """Serial numbers, machine ids and fabric ids after their labels (lines that name them only)."""
    for m in RE_SERIAL.finditer(t.lines_with(("serial", "gpu pdi"))):
        if any(c.isdigit() for c in m.group(3)):
            r.add_serial(m.group(3))
    if t.holds("id"):  # and so "guid", "uuid"
        for m in RE_MACHINE_ID.finditer(t.lines_with(_MACHINE_WORDS)):
            r.add_id("machine-id", m.group(1))
        for m in RE_FABRIC.finditer(t.lines_with(_FABRIC_WORDS)):
            r.add_id("fabric-id", m.group(2))


PATTERN_KINDS: dict[str, re.Pattern] = {"uuid": RE_UUID, "gpu-uuid": RE_GPU_UUID, "sid": RE_SID}
