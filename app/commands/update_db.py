"""`gpu-wizard update-db [--url URL]`: fetch a newer compatibility data bundle over HTTPS,
check its checksum and schema, and swap it in atomically (the old data stays on any failure)."""
from __future__ import annotations

HELP = "download newer compatibility data (checked by checksum and schema; the bundled data stays as fallback)"


def add_arguments(parser) -> None:
    from app.config import add_mirror_arguments

    parser.add_argument("--url", metavar="URL", help="bundle URL (default: db_url from the config file); its checksum is read from URL.sha256")
    parser.add_argument("--sha256", metavar="HEX", help="expected SHA-256 of the bundle (instead of URL.sha256)")
    parser.add_argument("--force", action="store_true", help="install even when the download is older than the installed data")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S", help="network timeout in seconds (default 30)")
    add_mirror_arguments(parser)


def run(args, ctx) -> int:
    from app.commands.base import CliError
    from app.compat.update import UpdateError, update_db
    from app.config import ConfigError, mirrors_from_args, requests_kwargs

    try:
        mirrors, cfg = mirrors_from_args(args)
    except ConfigError as e:
        raise CliError(str(e), 2) from None
    url = args.url or cfg.db_url
    if not url:
        raise CliError("no data URL: pass --url URL or set db_url in the config file", 2)
    try:
        res = update_db(url, sha256=args.sha256, force=args.force, timeout=args.timeout, requests_kwargs=requests_kwargs(mirrors))
    except UpdateError as e:
        raise CliError(f"update failed, the installed data is unchanged: {e}", 1) from None
    data = {"updated": res.changed, "version": res.version, "previous_version": res.previous_version, "path": res.path, "sha256": res.sha256}
    text = (f"Compat data updated: {res.previous_version or 'bundled'} -> {res.version} ({res.path})" if res.changed
            else f"Compat data {res.version} is already installed.")
    ctx.emit(data, text)
    return 0
