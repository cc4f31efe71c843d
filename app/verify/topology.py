"""How the GPUs are linked (NVML), and each pair's ceiling: what a copy between them can reach one way.

- NVLink straight to the peer: links x the per-link rate; through NVSwitches: the fewer of the two GPUs'
  switch links x the rate (every GPU reaches every other through all its links).
- Otherwise PCIe: the slower of the two GPUs' links (gen x width, as verdicts.pcie_gbps).

Per-link rate, one direction (NVIDIA's NVLink generations): Pascal (cc 6.x) 20 GB/s, Volta, Ampere and
Hopper (7.x-9.x) 25 GB/s, Blackwell (10.x and later) 50 GB/s; an H100/H200 SXM with 18 links: 450 GB/s.
Only the compute capability picks the rate: NVML's NvLink version numbering changed between releases.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from app.verify.health import bus_key
from app.verify.verdicts import link_name, pcie_gbps

MAX_LINKS = 18  # NVML_NVLINK_MAX_LINKS
LEVELS = {0: "same_board", 10: "one_switch", 20: "switches", 30: "host_bridge", 40: "numa_node", 50: "system"}
SWITCH = 2  # NVML_NVLINK_DEVICE_TYPE_SWITCH


@dataclass(frozen=True)
class PairLink:
    a: int  # NVML indices
    b: int
    topology: str = ""  # LEVELS' words, "nvlink" when linked by NVLink
    nvlinks: int = 0  # links straight to the peer
    switch_links: int = 0  # the fewer of the two GPUs' links to NVSwitches
    link: str = ""
    ceiling_gbps: Optional[float] = None


def nvlink_gbps(cc: Optional[str]) -> Optional[float]:
    if not cc:
        return None
    try:
        major = int(str(cc).split(".")[0])
    except ValueError:
        return None
    return 20.0 if major == 6 else 25.0 if 7 <= major <= 9 else 50.0 if major >= 10 else None


def _links(nvml: Any, h: Any) -> tuple[dict[str, int], int]:
    """({peer bus key: links}, links to NVSwitches) of one GPU."""
    peers: dict[str, int] = {}
    switch = 0
    for link in range(MAX_LINKS):
        try:
            if not nvml.nvmlDeviceGetNvLinkState(h, link):
                continue
        except Exception:
            continue
        try:
            if nvml.nvmlDeviceGetNvLinkRemoteDeviceType(h, link) == SWITCH:
                switch += 1
                continue
        except Exception:
            pass
        try:
            info = nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(h, link)
            bus = info.busId.decode() if isinstance(info.busId, bytes) else str(info.busId)
        except Exception:
            continue
        key = bus_key(bus)
        peers[key] = peers.get(key, 0) + 1
    return peers, switch


def pair_link(a: int, b: int, level: Optional[int], direct: int, switch: int, cc: Optional[str],
              pcie_a: tuple[Optional[int], Optional[int]], pcie_b: tuple[Optional[int], Optional[int]]) -> PairLink:
    """One pair's link and ceiling from what NVML said (pure)."""
    rate = nvlink_gbps(cc)
    topo = LEVELS.get(level, "") if level is not None else ""
    if direct and rate:
        return PairLink(a, b, "nvlink", direct, 0, f"NVLink x{direct}", round(direct * rate, 1))
    if switch and rate:
        return PairLink(a, b, "nvlink", 0, switch, f"NVLink x{switch} (NVSwitch)", round(switch * rate, 1))
    ca, cb = pcie_gbps(*pcie_a), pcie_gbps(*pcie_b)
    slow = min((x for x in (ca, cb) if x), default=None)
    which = pcie_a if ca == slow else pcie_b
    return PairLink(a, b, topo, 0, 0, link_name(*which) if slow else "PCIe", slow)


def read_topology(nvml: Any, handles: list[tuple[int, Any]], cc: Optional[str],
                  pcie: dict[int, tuple[Optional[int], Optional[int]]]) -> list[PairLink]:
    """Every ordered pair of the GPUs NVML lists. `pcie[index]`: (max generation, max width)."""
    info: dict[int, tuple[str, dict[str, int], int]] = {}
    for i, h in handles:
        try:
            bus = nvml.nvmlDeviceGetPciInfo(h).busId
            bus = bus.decode() if isinstance(bus, bytes) else str(bus)
        except Exception:
            bus = ""
        peers, switch = _links(nvml, h)
        info[i] = (bus_key(bus), peers, switch)
    out = []
    for i, hi in handles:
        for j, hj in handles:
            if i == j:
                continue
            try:
                level = int(nvml.nvmlDeviceGetTopologyCommonAncestor(hi, hj))
            except Exception:
                level = None
            direct = info[i][1].get(info[j][0], 0) if info[j][0] else 0
            switch = min(info[i][2], info[j][2])
            out.append(pair_link(i, j, level, direct, switch, cc, pcie.get(i, (None, None)), pcie.get(j, (None, None))))
    return out
