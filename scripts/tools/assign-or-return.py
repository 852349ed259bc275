#!/usr/bin/env python3
"""Rewrites hand-written error propagation into DENIABLE_ASSIGN_OR_RETURN / DENIABLE_TRY.

The pattern (core/common/result.h explains the macros):

    auto parsed = ParseThing(json,
                             where);
    if (!parsed) return MakeError(parsed.error());
    Use(*parsed, parsed->size(), parsed.value());

becomes

    DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseThing(json,
                                                      where));
    Use(parsed, parsed.size(), parsed);

and, where the variable is used nowhere else (a Status, or a Result whose
value is not needed), `DENIABLE_TRY(ParseThing(json, where));`.

The declaration may be `auto x =`, `const auto x =`, `Result<T> x =` or
`Status x =`; the check `if (!x)` or `if (!x.ok())`, returning
`MakeError(x.error())`, `Error{x.error()}` or `x.failure()` (on one line or as
a braced block). Anything else is left as written: a propagation that adds
context or changes the code is not a plain propagation, and a variable still
used as a Result after the check (`x.ok()`, `x.error()`, passed whole,
assigned, moved from and used again, or captured) cannot become its value.
Those are listed (file:line: why) so a person can decide.

Re-runnable: a rewritten file has no pattern left, so a second run changes
nothing. The script is the single source of truth for the rewrite: after
merging other branches, run it again rather than merging a rewritten tree.

  scripts/tools/assign-or-return.py [--dry-run] [--quiet] [PATH...]   rewrite (default: core wasm server)
  scripts/tools/assign-or-return.py --count [PATH...]                 count propagations by hand and by macro
"""

import argparse
import os
import re
import sys

DEFAULT_PATHS = ["core", "wasm", "server"]
EXTENSIONS = (".h", ".cc", ".cpp")
# result.h defines the macros; its text is not a use of them.
SKIP_FILES = {os.path.join("core", "common", "result.h")}

IDENT = r"[A-Za-z_]\w*"


# ---------------------------------------------------------------------------
# Masking: comments and string / character literals become spaces (newlines
# kept), so the searches below see code only and positions stay the same.

def mask_code(text):
    out = list(text)
    i, n = 0, len(text)

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            close = text.find(")" + delim + '"', open_paren)
            end = n if close < 0 else close + len(delim) + 2
            blank(i + 2, end - 1)
            i = end
        elif c == '"' or (c == "'" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            k = i + 1
            while k < n and text[k] != c:
                k += 2 if text[k] == "\\" else 1
            blank(i + 1, k)
            i = k + 1
        else:
            i += 1
    return "".join(out)


def scope_end(masked, start):
    """Position of the '}' closing the block that contains start."""
    depth = 0
    for k in range(start, len(masked)):
        ch = masked[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return k
    return len(masked)


def line_start(text, pos):
    return text.rfind("\n", 0, pos) + 1


def line_number(text, pos):
    return text.count("\n", 0, pos) + 1


# ---------------------------------------------------------------------------
# The check that passes an error on unchanged.

def plain_return(var):
    v = re.escape(var)
    return (rf"return\s+(?:MakeError\(\s*{v}\.error\(\)\s*\)|(?:::deniable::)?Error\{{\s*{v}\.error\(\)\s*\}}"
            rf"|(?:std::move\(\s*{v}\s*\)|{v})\.failure\(\))\s*;")


def check_regex(var):
    v = re.escape(var)
    cond = rf"if\s*\(\s*!\s*{v}(?:\.ok\(\))?\s*\)\s*"
    ret = plain_return(var)
    return re.compile(rf"[ \t]*{cond}(?:{ret}|\{{\s*{ret}\s*\}})[ \t]*\n")


CHECK_START = re.compile(rf"^[ \t]*if\s*\(\s*!\s*({IDENT})(?:\.ok\(\))?\s*\)", re.M)

DECLARATION = re.compile(
    rf"(?P<indent>[ \t]*)(?P<type>(?:const\s+)?(?:auto|Status|Result<[^=;{{}}]*>))\s*(?P<ref>&{{0,2}})\s*(?P<name>{IDENT})\s*=\s*",
    re.S)


# ---------------------------------------------------------------------------
# Later uses of the variable: each becomes the value, or the rewrite is refused.

def find_uses(masked, var, start, end):
    """Every occurrence of the identifier var in masked[start:end] that names
    a variable (not a member `a.var`, `a->var` or a qualified `ns::var`)."""
    uses = []
    for m in re.finditer(rf"(?<![\w]){re.escape(var)}(?!\w)", masked[start:end]):
        pos = start + m.start()
        before = masked[:pos].rstrip()
        if before.endswith(".") or before.endswith("->") or before.endswith("::"):
            continue
        after = masked[pos + len(var):].lstrip()
        if after.startswith("::"):
            continue
        uses.append(pos)
    return uses


def enclosing_heads(masked, start, pos):
    """The text before each block opened between start and pos that still
    encloses pos (the loop or lambda heads a use sits in)."""
    heads, stack = [], []
    for k in range(start, pos):
        ch = masked[k]
        if ch == "{":
            stack.append(k)
        elif ch == "}" and stack:
            stack.pop()
    for open_pos in stack:
        head_start = max(masked.rfind(";", start, open_pos), masked.rfind("}", start, open_pos),
                         masked.rfind("{", start, open_pos), start)
        heads.append(masked[head_start:open_pos])
    return heads


USE_FORMS = [
    # (name, regex on the masked text around the use, replacement). Postfix
    # forms first: `*x->m` is `*(x->m)`, so it becomes `*x.m`.
    ("std_move_value", r"std::move\(\s*{v}\s*\)\.value\(\)", "std::move({v})"),
    ("value", r"{v}\s*\.value\(\)", "{v}"),
    ("arrow", r"{v}\s*->", "{v}."),
    ("paren_deref", r"\(\s*\*\s*{v}\s*\)", "{v}"),
    ("move_deref", r"std::move\(\s*\*\s*{v}\s*\)", "std::move({v})"),
    ("deref", r"\*\s*{v}(?!\w)(?!\s*(?:->|\.|\[|\())", "{v}"),
]


def plan_uses(masked, var, uses, scope_start):
    """Replacements (start, end, text) for the uses, or a reason to refuse."""
    v = re.escape(var)
    edits = []
    for index, pos in enumerate(uses):
        matched = None
        for name, pattern, replacement in USE_FORMS:
            regex = re.compile(pattern.format(v=v))
            # The form may start before the identifier (`*x`, `(*x)`, `std::move(x)`).
            for back in range(0, 12):
                m = regex.match(masked, pos - back)
                if m and m.start() <= pos < m.end() and m.end() >= pos + len(var):
                    matched = (name, m.start(), m.end(), replacement.format(v=var))
                    break
            if matched:
                break
        if not matched:
            snippet = masked[max(0, pos - 12):pos + len(var) + 12].replace("\n", " ").strip()
            return None, f"`{var}` is used as a Result after the check (`{snippet}`)"
        name, s, e, text = matched
        if name == "paren_deref" and re.search(r"[\w)\]>]\s*$", masked[:s]):
            # `F(*x)`: the parentheses are a call's; only the `*x` in them is ours.
            s, e, text = pos - (pos - masked.rfind("*", 0, pos)), pos + len(var), var
        if name == "move_deref":
            # `std::move(*x)` copied (`*x` is const); moving the value is the
            # same only if nothing reads it afterwards, also not on a later
            # loop pass or lambda call.
            if index != len(uses) - 1:
                return None, f"`std::move(*{var})` is followed by another use of `{var}`"
            if any(re.search(r"\b(for|while|do)\b|\]\s*(\(|\{|mutable)", head)
                   for head in enclosing_heads(masked, scope_start, pos)):
                return None, f"`std::move(*{var})` sits in a loop or lambda"
        if edits and s < edits[-1][1]:
            continue  # already covered by the previous form (e.g. `(*x)` then `*x`)
        edits.append((s, e, text))
    return edits, None


# ---------------------------------------------------------------------------
# One file.

def declaration_before(text, masked, check_pos):
    """The declaration statement ending just before check_pos, as
    (match, statement start, its ';', the comment after it or "")."""
    k = check_pos - 1
    while k >= 0 and masked[k] in " \t\n":
        k -= 1
    if k < 0 or masked[k] != ";":
        return None
    semicolon = k
    # Walk back to the start of that statement: after the previous ';', '{' or '}' at depth 0.
    depth = 0
    j = semicolon - 1
    while j >= 0:
        ch = masked[j]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            depth -= 1
        elif depth == 0 and ch in ";{}":
            break
        j -= 1
    start = j + 1
    while start < semicolon and masked[start] in " \t\n":
        start += 1
    start = line_start(text, start)
    # Only whole lines, the check on the next line; a comment after the ';' is kept.
    between = text[semicolon + 1:check_pos]
    comment = between.strip()
    if between.count("\n") != 1 or (comment and not re.fullmatch(r"//[^\n]*", comment)):
        return None
    m = DECLARATION.match(masked, start)
    if not m:
        return None
    return m, start, semicolon, comment


def reindent(expression, base_indent, shift):
    """Moves continuation lines aligned under the first line by shift columns
    (the macro's name now stands before them); a plain hanging indent stays."""
    lines = expression.split("\n")
    for i in range(1, len(lines)):
        indent = len(lines[i]) - len(lines[i].lstrip(" "))
        if lines[i].strip() and indent > len(base_indent) + 4:
            lines[i] = " " * max(len(base_indent) + 4, indent + shift) + lines[i].lstrip(" ")
    return "\n".join(lines)


MAX_COLUMNS = 120


def macro_statement(indent, macro, lhs, old_prefix, expression, tail):
    """`MACRO(lhs, expression);` laid out like the code around it: on one line
    if it fits, else the expression on the next line under the parenthesis."""
    opening = f"{indent}{macro}(" + (f"{lhs}, " if lhs else "")
    first = expression.split("\n")[0]
    if len(opening) + len(first) + 2 <= MAX_COLUMNS or not lhs:
        body = reindent(expression, indent, len(opening) - len(old_prefix))
        return f"{opening}{body});{tail}\n"
    under = " " * len(f"{indent}{macro}(")
    body = reindent(expression, indent, len(under) - len(old_prefix))
    return f"{indent}{macro}({lhs},\n{under}{body});{tail}\n"


def rewrite_text(text, problems):
    """Returns the rewritten text; appends (lines from the end, reason) to problems.

    Works from the end of the file up, so a rewrite never moves what is still
    to be read; after each step the text is masked afresh."""
    limit = len(text) + 1
    while True:
        masked = mask_code(text)
        candidates = [m for m in CHECK_START.finditer(masked) if m.start() < limit]
        if not candidates:
            return text
        check = candidates[-1]
        limit = check.start()
        var = check.group(1)
        check_pos = check.start()
        full = check_regex(var).match(masked, check_pos)
        if not full:
            continue  # a check that adds context or does something else
        def refuse(reason):
            problems.append((text.count("\n", check_pos), reason))
        found = declaration_before(text, masked, check_pos)
        if not found:
            continue  # no declaration right above: not this pattern (counted, not listed)
        decl, stmt_start, semicolon, comment = found
        if decl.group("name") != var:
            continue
        if text[check_pos:full.end()] != masked[check_pos:full.end()]:
            refuse("the check carries a comment")
            continue
        type_text = decl.group("type")
        if decl.group("ref"):
            refuse(f"`{var}` is a reference to a Result (the macro would copy it)")
            continue
        indent = decl.group("indent")
        old_prefix = text[stmt_start:decl.end()]
        expression = text[decl.end():semicolon]
        tail = f"  {comment}" if comment else ""
        scope_close = scope_end(masked, full.end())
        uses = find_uses(masked, var, full.end(), scope_close)
        if not uses:
            statement = macro_statement(indent, "DENIABLE_TRY", "", old_prefix, expression, tail)
            text = text[:stmt_start] + statement + text[full.end():]
            continue
        if re.fullmatch(r"(?:const\s+)?Status", type_text):
            refuse(f"the Status `{var}` is used after the check")
            continue
        edits, reason = plan_uses(masked, var, uses, full.end())
        if reason:
            refuse(reason)
            continue
        lhs_type = type_text
        result_type = re.fullmatch(r"(const\s+)?Result<(.*)>", type_text, re.S)
        if result_type:
            lhs_type = (result_type.group(1) or "") + result_type.group(2).strip()
            if "," in lhs_type:
                refuse(f"the type of `{var}` has a comma (a macro argument cannot)")
                continue
        # The uses' edits from the end (they follow the declaration), then the declaration.
        for s, e, new in sorted(edits, reverse=True):
            text = text[:s] + new + text[e:]
        statement = macro_statement(indent, "DENIABLE_ASSIGN_OR_RETURN", f"{lhs_type} {var}", old_prefix,
                                    expression, tail)
        text = text[:stmt_start] + statement + text[full.end():]


# ---------------------------------------------------------------------------
# Counting.

HAND_CHECK = re.compile(rf"if\s*\(\s*!\s*({IDENT})(?:\.ok\(\))?\s*\)\s*\{{?\s*return\b([^;]*);", re.S)


def count_text(masked):
    plain = context = 0
    for m in HAND_CHECK.finditer(masked):
        var, returned = m.group(1), m.group(2)
        v = re.escape(var)
        if not re.search(rf"(?<![\w.]){v}\s*\.\s*(error|failure|error_code)\s*\(", returned):
            continue
        if re.fullmatch(plain_return(var), "return" + returned + ";", re.S) or \
           re.fullmatch(plain_return(var), "return " + returned.strip() + ";", re.S):
            plain += 1
        else:
            context += 1
    macros = len(re.findall(r"\bDENIABLE_(?:TRY|ASSIGN_OR_RETURN)\s*\(", masked))
    return plain, context, macros


# ---------------------------------------------------------------------------

def source_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for directory, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(directory, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=DEFAULT_PATHS)
    parser.add_argument("--count", action="store_true", help="count propagations by hand and by macro; change nothing")
    parser.add_argument("--dry-run", action="store_true", help="list what would change; write nothing")
    parser.add_argument("--quiet", action="store_true", help="do not list the propagations left as written")
    args = parser.parse_args()

    files = [f for f in sorted(set(source_files(args.paths))) if os.path.normpath(f) not in SKIP_FILES]
    if args.count:
        plain = context = macros = 0
        for path in files:
            with open(path, encoding="utf-8") as f:
                p, c, m = count_text(mask_code(f.read()))
            plain, context, macros = plain + p, context + c, macros + m
        print(f"by hand: {plain + context} ({plain} pass the error on unchanged, {context} add context or change it)")
        print(f"by macro: {macros} (DENIABLE_TRY and DENIABLE_ASSIGN_OR_RETURN)")
        return 0

    rewritten_files = rewrites = 0
    listed = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        problems = []
        new_text = rewrite_text(text, problems)
        total_lines = new_text.count("\n") + 1
        listed.extend((path, total_lines - from_end, reason) for from_end, reason in sorted(problems, reverse=True))
        if new_text != text:
            before = sum(count_text(mask_code(text))[:2])
            after = -sum(count_text(mask_code(new_text))[:2])
            rewritten_files += 1
            rewrites += before + after
            if args.dry_run:
                print(f"would rewrite {path}: {before + after} propagation(s)")
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new_text)
    if not args.quiet:
        for path, line, reason in listed:
            print(f"{path}:{line}: left as written: {reason}")
    verb = "would rewrite" if args.dry_run else "rewrote"
    print(f"{verb} {rewrites} propagation(s) in {rewritten_files} file(s); {len(listed)} left as written (listed above)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
