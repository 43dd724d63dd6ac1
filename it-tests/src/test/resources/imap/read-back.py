#!/usr/bin/env python3
"""What a mail client sees: every message of every folder of the given users, read with Python's
imaplib (not mailrestore's code). Logs in as each user with SASL PLAIN and an authorization
identity (the admin acting for the user). One tab-separated line per message on stdout:

    M <user> <folder> <flags, space-separated, sorted> <SHA-256 of BODY.PEEK[]> <INTERNALDATE>

and one line per ACL entry of each folder (when the server has ACL):

    A <user> <folder> <identifier> <rights>

Folders are named relative to the user's personal namespace, with "/" between levels and INBOX
as "INBOX". Environment: IMAP_HOST, IMAP_PORT, IMAP_ADMIN, IMAP_PASSWORD; users as arguments.
Users are read on a few connections at once (the server's work, not the client's, is what takes
the time); the lines come out in the order of the arguments all the same.
"""
import concurrent.futures
import hashlib
import imaplib
import io
import os
import re
import sys

LIST_LINE = re.compile(rb'\((?P<attrs>[^)]*)\) (?P<sep>"[^"]*"|NIL) (?P<name>.*)$')


def unquote(word):
    if word.startswith(b'"') and word.endswith(b'"'):
        return word[1:-1].replace(b'\\"', b'"').replace(b'\\\\', b'\\')
    return word


def personal_prefix(imap):
    typ, data = imap.namespace()
    m = re.match(rb'\(\("(?P<prefix>[^"]*)" "(?P<sep>[^"]*)"\)', data[0])
    return (m.group('prefix'), m.group('sep')) if m else (b'', b'/')


def folders(imap):
    typ, data = imap.list('""', '*')
    for line in data:
        if isinstance(line, tuple):  # a name sent as a literal
            name = line[1]
            attrs = line[0]
        else:
            m = LIST_LINE.match(line)
            name, attrs = unquote(m.group('name')), m.group('attrs')
        if b'\\Noselect' in attrs or b'\\NonExistent' in attrs:
            continue
        yield name


def relative(name, prefix, sep):
    if name.upper() == b'INBOX':
        return 'INBOX'
    if prefix and name.startswith(prefix):
        name = name[len(prefix):]
    # The modified UTF-7 of RFC 3501 is left as the server sends it.
    return name.decode('ascii').replace(sep.decode('ascii'), '/')


def dump(host, port, admin, password, user, out):
    imap = imaplib.IMAP4(host, port)
    imap.authenticate('PLAIN', lambda _: b'\0'.join(
        [user.encode(), admin.encode(), password.encode()]))
    prefix, sep = personal_prefix(imap)
    typ, data = imap.capability()  # servers announce more once logged in (Dovecot's ACL)
    acl = b'ACL' in data[0].split()
    for name in sorted(folders(imap)):
        quoted = '"' + name.decode('ascii').replace('\\', '\\\\').replace('"', '\\"') + '"'
        folder = relative(name, prefix, sep)
        if acl:
            typ, data = imap.getacl(quoted)
            words = re.findall(rb'"[^"]*"|\S+', data[0])[1:]
            for ident, rights in zip(words[0::2], words[1::2]):
                out.write('A\t%s\t%s\t%s\t%s\n' % (
                    user, folder, unquote(ident).decode(), rights.decode()))
        typ, data = imap.select(quoted, readonly=True)
        if int(data[0]) == 0:
            continue
        typ, data = imap.uid('FETCH', '1:*', '(FLAGS INTERNALDATE BODY.PEEK[])')
        for part in data:
            if not isinstance(part, tuple):
                continue
            meta, body = part
            flags = re.search(rb'FLAGS \(([^)]*)\)', meta).group(1).split()
            flags = sorted(f.decode() for f in flags if f != b'\\Recent')
            date = re.search(rb'INTERNALDATE "([^"]*)"', meta).group(1).decode()
            out.write('M\t%s\t%s\t%s\t%s\t%s\n' % (
                user, folder, ' '.join(flags), hashlib.sha256(body).hexdigest(), date))
    imap.logout()


def read(user):
    env = os.environ
    out = io.StringIO()
    dump(env['IMAP_HOST'], int(env['IMAP_PORT']), env['IMAP_ADMIN'], env['IMAP_PASSWORD'],
         user, out)
    return out.getvalue()


def main():
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for lines in pool.map(read, sys.argv[1:]):
            sys.stdout.write(lines)


if __name__ == '__main__':
    main()
