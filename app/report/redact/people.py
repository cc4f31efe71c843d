"""People: user names (home folders, prompts, USER=...), home paths, a person's real name (git's
user.name, GIT_AUTHOR_NAME, "Author: Name <mail>", GECOS, finger, net user) and the machine's
own host name as `uname -a` prints it."""
from __future__ import annotations

import itertools
import operator
import re

from .common import COMMON_WORDS, NOT_PRIVATE_USERS, Learner, Text

# a home folder's owner: /home/<u>, /Users/<u>, C:\\Users\\<u>, \\\\wsl$\\Distro\\home\\<u> (and \\wsl.localhost), and
# the same with doubled backslashes as repr()/JSON escaping writes them (C:\\\\Users\\\\<u>)
HOME_PARENTS = ("/home/", "/Users/", "/users/", "\\Users\\", "\\users\\", "\\home\\",
                "\\\\Users\\\\", "\\\\users\\\\", "\\\\home\\\\")
# (every parent ends in "/" or "\\": the pattern starts with that character, so the regex engine skips
# ahead to the next slash instead of trying its lookbehinds at every position; the slash is never part
# of a name, so the matches are those of the lookbehinds alone)
RE_HOME = re.compile(r"[/\\](?:" + "|".join(f"(?<={re.escape(p)})" for p in HOME_PARENTS)
                     + r")([^/\\\s:;'\"<>|,=*?()\[\]{}]{1,64})")
RE_PROMPT = re.compile(r"(?<![\w.@-])([a-z_][a-z0-9_.-]{0,31})@([A-Za-z0-9][A-Za-z0-9-]{0,62})(?=:[~/]|[:$#>](?:\s|$)|\s*[$#] )")
RE_GIT_USER = re.compile(r"(?ims)^[ \t]*\[user\][^\[]*?^[ \t]*name[ \t]*=[ \t]*\"?([^\"\r\n]+?)\"?[ \t]*$")
RE_GIT_NAME = re.compile(r"(?im)(?:\buser\.name[ \t]*[= \t][ \t]*|\bGIT_(?:AUTHOR|COMMITTER)_NAME[ \t]*=[ \t]*|^(?:Author|Commit)"
                         r"(?:Date)?:[ \t]+(?=[^<\r\n]+<)|\bFull Name[ \t]{2,}|\bLogin:[ \t]+\S+[ \t]+Name:[ \t]*)"
                         r"[\"']?([^\"'<\r\n]+?)[\"']?[ \t]*(?:<|$)")
_NAME_WORDS = ("user.name", "git_author_name", "git_committer_name", "author:", "commit:", "authordate:", "commitdate:",
               "full name", "login:")
RE_PASSWD = re.compile(r"(?m)^([a-z_][a-z0-9_.-]*\$?):[^:\n]*:(\d+):\d+:([^:\n]*):(/[^:\n]*):[^:\n]*$")
RE_UNAME = re.compile(r"(?m)^(?:Linux|Darwin|FreeBSD) ([A-Za-z0-9][A-Za-z0-9.-]{0,252}) \d+\.\d+\S* #\d")


def learn_pieces(r: Learner, t: Text) -> None:
    homes = list(itertools.compress(t.pieces, t.gate(("home", 1), ("sers", 1))))
    if homes:
        _add_users(r, list(dict.fromkeys(RE_HOME.findall("\n".join(homes)))))
    at = t.having("@")
    if at:
        joined = " \n".join(at) + " "
        for m in RE_PROMPT.finditer(joined):
            r.add_user(m.group(1))
            r.add_host(m.group(2))


_USUAL_USER = re.compile(r"[\w.@$-]+")


def _add_users(r: Learner, names: list[str]) -> None:
    """add_user for each name, in order; in bulk (Store.add_all) when each is one that add_user takes
    as it is (letters, digits and "_.@$-" only, not all digits) or one it refuses (root, nobody ...)."""
    if not names:
        return
    lows = list(map(str.lower, names))
    refused = list(map(operator.or_, map(NOT_PRIVATE_USERS.__contains__, lows), map(str.isdigit, names)))
    usual = map(operator.or_, refused, map(bool, map(_USUAL_USER.fullmatch, names)))
    if not all(usual) or any(len(n) > 64 for n in names):
        for n in names:
            r.add_user(n)
        return
    taken = list(itertools.compress(names, map(operator.not_, refused)))
    weak = frozenset(n for n in taken if len(n) < 4 or n.lower() in COMMON_WORDS)
    r.add_all("user", taken, weak=weak)


def learn_context(r: Learner, t: Text) -> None:
    text, low = t.text, t.low
    if "[user]" in low:
        i = low.find("[user]")
        while i >= 0:
            j = low.find("\n[", i + 6)
            for m in RE_GIT_USER.finditer(text[max(0, low.rfind("\n", 0, i) + 1):len(text) if j < 0 else j]):
                r.add_name(m.group(1))
            i = low.find("[user]", i + 6)
    for m in RE_GIT_NAME.finditer(t.lines_with(_NAME_WORDS)):
        r.add_name(m.group(1))
    if ":/" in t.joined:
        all_lines = text.split("\n")
        lines = "\n".join(itertools.compress(all_lines, map((6).__le__, map(str.count, all_lines, itertools.repeat(":")))))
        for m in RE_PASSWD.finditer(lines):
            uid = int(m.group(2))
            if 1000 <= uid < 60000:
                r.add_user(m.group(1))
                r.add_name(m.group(3).split(",", 1)[0])
                r.add_home(m.group(4))
    for m in RE_UNAME.finditer(t.lines_with(("linux ", "darwin ", "freebsd "))):
        r.add_host(m.group(1))
