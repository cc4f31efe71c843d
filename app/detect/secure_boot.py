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


def parse_efivar(data: Optional[str]) -> Optional[bool]:
    """The variable is 4 attribute bytes then 1 value byte (1 = enabled)."""
    if not data or len(data) < 5:
        return None
    v = ord(data[4])
    return True if v == 1 else False if v == 0 else None
