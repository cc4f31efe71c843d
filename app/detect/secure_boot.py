"""Secure Boot: `mokutil --sb-state`, or the SecureBoot EFI variable."""
from __future__ import annotations

from typing import Optional

MOKUTIL_ARGV = ["mokutil", "--sb-state"]
EFI_DIR = "/sys/firmware/efi"
EFIVAR = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"


def parse_mokutil(text: str) -> Optional[bool]:
    t = (text or "").lower()
    if "secureboot enabled" in t:
        return True
    if "secureboot disabled" in t or "not supported on this system" in t:
        return False
    return None


def od_argv(path: str = EFIVAR) -> list[str]:
    """The EFI variable is binary; `od` prints its bytes as numbers, which survive text snapshots."""
    return ["od", "-An", "-t", "u1", path]


def parse_od_efivar(text: str) -> Optional[bool]:
    """' 6 0 0 0 1' (4 attribute bytes, then the value) → True."""
    nums = [int(x) for x in (text or "").split() if x.isdigit()]
    if len(nums) < 5:
        return None
    return True if nums[4] == 1 else False if nums[4] == 0 else None


def parse_efivar(data: Optional[str]) -> Optional[bool]:
    """The variable is 4 attribute bytes then 1 value byte (1 = enabled)."""
    if not data or len(data) < 5:
        return None
    v = ord(data[4])
    return True if v == 1 else False if v == 0 else None
