#!/usr/bin/python3
"""smtp_server.py: a real SMTP server for tests/e2e/mail.sh (Debian's
python3-aiosmtpd) on 127.0.0.1 and a free port. Every accepted message is
saved as OUTDIR/N.eml (the DATA bytes as received) with OUTDIR/N.json
(envelope sender, recipients, the AUTH mechanism and login used).

  smtp_server.py OUTDIR PORTFILE [--refuse-rcpt ADDR] [--refuse-from ADDR]
                 [--auth-user USER] [--drop-at-data] [--size-limit BYTES]
                 [--stall-at greeting|rcpt|data]
                 [--starttls CERT KEY | --smtps CERT KEY]

With --auth-user, AUTH (PLAIN or LOGIN, without TLS: loopback only) is
required and the password is $SMTP_TEST_PASSWORD (without TLS only when
neither TLS option is given). --starttls requires STARTTLS before
anything else; --smtps speaks TLS from the first byte. The chosen port is
written to PORTFILE once the server accepts connections; it runs until
SIGTERM.

--stall-at makes the server go silent for an hour (a hung server, not a
closed one): 'greeting' accepts TCP connections and never says 220 (a
plain listening socket, no SMTP at all); 'rcpt' never answers RCPT TO;
'data' reads the whole message after DATA and never answers the final
'.', nor the QUIT that follows (aiosmtpd answers commands in order).
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import socket
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Saver:
    def __init__(self, outdir, refuse_rcpt, refuse_from, drop_at_data, stall_at=None):
        self.outdir = outdir
        self.stall_at = stall_at
        self.refuse_rcpt = set(refuse_rcpt)
        self.refuse_from = set(refuse_from)
        self.drop_at_data = drop_at_data
        self.count = 0

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if address in self.refuse_from:
            return "553 5.7.1 <%s>: sender not allowed here" % address
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.stall_at == "rcpt":
            await asyncio.sleep(3600)
        if address in self.refuse_rcpt:
            return "550 5.1.1 <%s>: no such user" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.stall_at == "data":
            await asyncio.sleep(3600)
        if self.drop_at_data:
            server.transport.close()
            return "421 4.3.0 closing"
        self.count += 1
        base = os.path.join(self.outdir, str(self.count))
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content)
        login = None
        if isinstance(session.auth_data, LoginPassword):
            login = session.auth_data.login.decode()
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                       "login": login}, f)
        return "250 2.0.0 saved as %d" % self.count


def authenticator_for(user, outdir):
    password = os.environ.get("SMTP_TEST_PASSWORD", "").encode()

    def check(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword) and auth_data.login == user.encode()
              and auth_data.password == password)
        with open(os.path.join(outdir, "auth.log"), "a") as f:
            f.write("%s %s\n" % (mechanism, "ok" if ok else "refused"))
        # handled=False: aiosmtpd itself answers 535 to a refused login
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)
    return check


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_port(portfile, port):
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(portfile + ".tmp", portfile)


def silent_listener(portfile):
    """Accepts connections and never says a word, until SIGTERM."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    write_port(portfile, s.getsockname()[1])
    kept = []
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    while True:
        kept.append(s.accept()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("portfile")
    ap.add_argument("--refuse-rcpt", action="append", default=[])
    ap.add_argument("--refuse-from", action="append", default=[])
    ap.add_argument("--auth-user")
    ap.add_argument("--drop-at-data", action="store_true")
    ap.add_argument("--stall-at", choices=["greeting", "rcpt", "data"])
    ap.add_argument("--size-limit", type=int, help="bytes (SIZE extension); default 32 MiB")
    ap.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--smtps", nargs=2, metavar=("CERT", "KEY"))
    a = ap.parse_args()
    if a.stall_at == "greeting":
        silent_listener(a.portfile)
        return
    handler = Saver(a.outdir, a.refuse_rcpt, a.refuse_from, a.drop_at_data, a.stall_at)
    kw = {}
    tls = a.starttls or a.smtps
    if a.auth_user:
        kw = dict(auth_required=True, auth_require_tls=bool(tls),
                  authenticator=authenticator_for(a.auth_user, a.outdir))
    if tls:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(*tls)
        if a.starttls:
            kw.update(tls_context=ctx, require_starttls=True)
        else:
            kw.update(ssl_context=ctx)
    if a.size_limit:
        kw["data_size_limit"] = a.size_limit
    port = free_port()
    ctl = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=30, **kw)
    ctl.start()
    write_port(a.portfile, port)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    done.wait()
    if a.stall_at:  # a handler is asleep: stop() would wait for it
        os._exit(0)
    ctl.stop()


if __name__ == "__main__":
    main()
