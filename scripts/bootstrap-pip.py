"""Put pip into a venv made with --without-pip, for a Python that lacks ensurepip (Debian/Ubuntu
without pythonX.Y-venv) on a machine where the packages cannot be installed (no root, no sudo).
Fetches pip's wheel from PyPI (honouring pip's usual index variables and the CA bundle variables),
checks it against the sha256 PyPI publishes, and runs pip from the wheel to install itself.
    python3 scripts/bootstrap-pip.py VENV_PYTHON
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request


def main() -> int:
    py = sys.argv[1]
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    base = index[: -len("/simple")] if index.endswith("/simple") else "https://pypi.org"
    meta_url = f"{base}/pypi/pip/json"
    with urllib.request.urlopen(meta_url, timeout=30) as r:
        meta = json.load(r)
    wheel = next(u for u in meta["urls"] if u["packagetype"] == "bdist_wheel")
    with urllib.request.urlopen(urllib.parse.urljoin(meta_url, wheel["url"]), timeout=120) as r:
        data = r.read()
    if hashlib.sha256(data).hexdigest() != wheel["digests"]["sha256"]:
        print(f"bootstrap-pip: {wheel['filename']} does not match PyPI's sha256; not used", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, wheel["filename"])
        with open(path, "wb") as f:
            f.write(data)
        return subprocess.call([py, os.path.join(path, "pip"), "install", "--no-index", "--quiet", path])


if __name__ == "__main__":
    sys.exit(main())
