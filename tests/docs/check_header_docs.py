#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the doc comments of the public headers (STYLE.md "Docs", in the manner of xxHash):

  python3 tests/docs/check_header_docs.py SOURCE_DIR

Headers: every header under an include/ folder of SOURCE_DIR (tests/ and build trees aside).
Each header's @file comment has an API overview ("overview"). Each function declared in a header
has a /** */ comment right before it (a second definition of the same name, in another #if
branch, shares the first one's), and that comment has:
  - one @param (with [in], [out] or [in,out]) per parameter, named as in the declaration;
  - @return or @retval for a function that returns a value (@retval for an evrec_status);
  - a **Context:** line (thread, ISR, lock);
  - one tag per line: no @param, @retval, @return, @pre or **Context:** after other text.
Exit status: 0 all good, 1 a finding (file:line: what is missing), 2 bad usage.
"""
import os
import re
import sys

# Headers checked elsewhere, and why.
EXEMPT = {
}
TAG = re.compile(r'(@param(\[[a-z,]+\])?\s|@retval\s|@returns?\s|@pre\s|\*\*Context:\*\*)')
DECL = re.compile(r'^(?!typedef)(?:static\s+(?:inline|EVREC_ALWAYS_INLINE)\s+)?(?:const\s+)?[a-z][\w \t*]*?[ \t*]'
                  r'(evrec_\w+)\s*\(', re.M)


def headers(src):
    for top in sorted(os.listdir(src)):
        path = os.path.join(src, top)
        if top == 'tests' or top.startswith('.') or not os.path.isdir(path):
            continue
        if os.path.exists(os.path.join(path, 'CMakeCache.txt')):
            continue  # a build tree
        for d, _, files in os.walk(path):
            if '/include' not in d + '/':
                continue
            for f in sorted(files):
                if f.endswith('.h'):
                    yield os.path.relpath(os.path.join(d, f), src)


def params_of(text):
    depth, cur, out = 0, '', []
    for ch in text:
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
            continue
        depth += (ch == '(') - (ch == ')')
        cur += ch
    out.append(cur)
    names = []
    for p in out:
        p = re.sub(r'\[[^]]*\]', '', p).strip()
        if p in ('', 'void', '...'):
            continue
        fp = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)
        names.append(fp.group(1) if fp else re.findall(r'\w+', p)[-1])
    return names


def check_doc(rel, line, name, ret, params, doc):
    out = []
    for i, text in enumerate(doc.split('\n')):
        body = re.sub(r'^\s*\*?\s?', '', text)
        if '@code' in body:
            break
        if any(m.start() > 0 and body[:m.start()].strip() for m in TAG.finditer(body)):
            out.append(f'{rel}:{line + i}: {name}: a tag after other text (one tag per line)')
    documented = re.findall(r'@param\[(?:in|out|in,out)\]\s+(\w+)', doc)
    for p in params:
        if p not in documented:
            out.append(f'{rel}:{line}: {name}: no @param[in|out|in,out] {p}')
    for p in documented:
        if p not in params:
            out.append(f'{rel}:{line}: {name}: @param {p} is not a parameter')
    if re.search(r'@param\s', doc):
        out.append(f'{rel}:{line}: {name}: @param without [in], [out] or [in,out]')
    if ret == 'evrec_status' and '@retval' not in doc:
        out.append(f'{rel}:{line}: {name}: returns an evrec_status without @retval')
    elif ret != 'void' and not re.search(r'@returns?\s|@retval\s', doc):
        out.append(f'{rel}:{line}: {name}: returns {ret} without @return')
    if '**Context:**' not in doc:
        out.append(f'{rel}:{line}: {name}: no **Context:** line')
    return out


def check(src, rel):
    text = open(os.path.join(src, rel), encoding='utf-8').read()
    out = []
    head = re.search(r'/\*\*(.*?)\*/', text, re.S)
    if not head or '@file' not in head.group(1) or 'overview' not in head.group(1).lower():
        out.append(f'{rel}:1: the @file comment has no API overview')
    seen = set()
    for m in DECL.finditer(text):
        name = m.group(1)
        line = text.count('\n', 0, m.start()) + 1
        end = text.find(')', m.end())
        depth, j = 1, m.end()
        while depth and j < len(text):
            depth += (text[j] == '(') - (text[j] == ')')
            j += 1
        params = params_of(text[m.end():j - 1])
        ret = re.sub(r'\b(static|inline|EVREC_\w+)\b', '', text[m.start():m.start(1)]).strip()
        ret = re.sub(r'\s+', ' ', ret).replace(' *', '*')
        before = text[:m.start()].rstrip()
        # an attribute macro on its own line (EVREC_DEPRECATED("...")) between the comment and the function
        before = re.sub(r'\n\s*EVREC_[A-Z_]+\("[^"\n]*"\)$', '', before).rstrip()
        if not before.endswith('*/'):
            if name not in seen:
                out.append(f'{rel}:{line}: {name}: no doc comment')
            continue
        start = before.rfind('/**')
        if start < 0 or before.rfind('*/', 0, len(before) - 2) > start:
            if name not in seen:
                out.append(f'{rel}:{line}: {name}: no doc comment')
            continue
        seen.add(name)
        doc = before[start + 3:-2]
        out += check_doc(rel, text.count('\n', 0, start) + 1, name, ret, params, doc)
        del end
    return out


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    src = argv[1]
    findings, count = [], 0
    for rel in headers(src):
        if rel in EXEMPT:
            print(f'check_header_docs: {rel} exempt: {EXEMPT[rel]}')
            continue
        count += 1
        findings += check(src, rel)
    for f in findings:
        sys.stderr.write(f + '\n')
    if findings:
        sys.stderr.write(f'check_header_docs: {len(findings)} findings in {count} public headers\n')
        return 1
    print(f'check_header_docs: the {count} public headers document every function')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
