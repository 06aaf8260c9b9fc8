"""Attacker's pass, round 3 (after the transport/access restructuring): each test failed on main f86441f.

Only 127.0.0.1 is contacted: a one-shot capture server (tests/servers.Misbehaving) plays the gateway or the
gopher server and records what arrives. See the attacker's report for the invariant each test is about.
"""
import sys, time
from pathlib import Path

import pytest
from hypothesis import given, settings, HealthCheck, strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from servers import Misbehaving, read_until  # noqa: E402

import uri1630  # noqa: E402
from uri1630 import (URIError, RetrievalError, retrieve, risks, gopher_exchange,  # noqa: E402
                     parse_login)


def _gateway(reply=b'HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n'):
    "A gateway on 127.0.0.1 that records each request (head) and answers `reply`"
    def script(c, rec):
        c.settimeout(2)
        try: rec.append(read_until(c, b'\r\n\r\n'))
        except OSError: rec.append(b'')
        c.sendall(reply)
    return Misbehaving(script)


def _sink():
    "A server on 127.0.0.1 that records every connection (b'' if nothing was sent) and never answers"
    def script(c, rec):
        c.settimeout(0.5); buf = b''
        try:
            while (b := c.recv(4096)): buf += b
        except OSError: pass
        rec.append(buf)
    return Misbehaving(script)


def _settle(): time.sleep(0.3)   # let the server thread record a connection that was made


# --- Finding 1 (invariant 5, secrets): through a gateway, the password travels in RetrievalError.command and trace
def test_gateway_error_command_does_not_carry_the_password():
    with _gateway() as g:
        with pytest.raises(RetrievalError) as ei:
            retrieve('ftp://alice:s3cret@127.0.0.1/x', proxy=f'127.0.0.1:{g.port}', timeout=2, total_timeout=3)
    e = ei.value
    assert 's3cret' not in (e.command or ''), e.command            # direct FTP shows 'PASS ***'; the gateway path does not
    assert 's3cret' not in repr(e.__reduce__())


def test_gateway_trace_does_not_show_the_password():
    lines = []
    with _gateway(b'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok') as g:
        retrieve('ftp://alice:s3cret@127.0.0.1/x', proxy=f'127.0.0.1:{g.port}', timeout=2, total_timeout=3,
                 trace=lambda d, ln: lines.append(ln))
    assert not any('s3cret' in ln for ln in lines), lines           # direct FTP traces 'PASS ***'


# --- Finding 2 (gopher+ ASK / CR-LF-NUL, called directly): gopher_exchange sends what retrieve refuses
SMTP = 'sel\t\t+\r\nHELO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<victim@c>\r\n'

def test_gopher_exchange_plus_request_needs_allow_ask():
    "gopher_exchange(plus=True) sends several lines of the caller's choosing with allow_ask left False"
    with _sink() as s:
        with pytest.raises(URIError) as ei:
            gopher_exchange('127.0.0.1', s.port, SMTP, '0', plus=True, timeout=0.5, total_timeout=1)
        _settle()
        assert "one line" in str(ei.value), ei.value   # refused up front, not a timeout after sending
        assert s.received == [], s.received


def test_gopher_exchange_refuses_nul():
    "a URL's selector with %00 is refused ('would end the gopher request line early'); the same request direct is sent"
    with _sink() as s:
        with pytest.raises(URIError) as ei:
            gopher_exchange('127.0.0.1', s.port, 'a\x00b\r\n', '0', timeout=0.5, total_timeout=1)
        _settle()
        assert "NUL" in str(ei.value), ei.value
        assert s.received == [], s.received


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(st.characters(min_codepoint=0x100, max_codepoint=0x10ffff, exclude_categories=('Cs',)), min_size=1, max_size=3))
def test_gopher_exchange_non_octet_request_is_refused_before_connecting(t):
    "a character > U+00FF escaped as UnicodeEncodeError, after the connection was opened"
    with _sink() as s:
        with pytest.raises(URIError):
            gopher_exchange('127.0.0.1', s.port, f'a{t}\r\n', '0', timeout=0.5, total_timeout=1)
        _settle()
        assert s.received == [], s.received


# --- Finding 3 (invariants 1 and 6): a generic `//host` URL reaches the gateway with a host another resolver misreads
@pytest.mark.parametrize('url', ['x-foo://0177.0.0.1/', 'x-foo://0x7f.1/', 'whois://0x7f000001/', 'x500://0177.0.0.1/',
                                 'x-foo://u:pw@010.0.0.1/'])
def test_gateway_refuses_generic_host_numbers(url):
    with _gateway(b'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok') as g:
        with pytest.raises(URIError):
            retrieve(url, proxy=f'127.0.0.1:{g.port}', timeout=2, total_timeout=3)
        _settle()
        assert g.received == [], g.received


def test_risks_see_generic_host_numbers_and_passwords():
    kinds = {r.kind for r in risks('x-foo://u:pw@0177.0.0.1/')}
    assert 'host-number-zeros' in kinds and 'password' in kinds, kinds


# --- Finding 4 (invariant 6, a policy question): an encoded CR LF reaches a gateway for a line-based protocol
@pytest.mark.parametrize('url', ['whois://127.0.0.1/a%0D%0Ab', 'prospero://127.0.0.1/a%0D%0Ab',
                                 'wais://127.0.0.1/db/t/p%0D%0AQUIT', 'x-foo://127.0.0.1/a%0D%0Ab'])
def test_gateway_refuses_encoded_crlf(url):
    assert 'encoded-control' in {r.kind for r in risks(url)}
    with _gateway(b'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok') as g:
        with pytest.raises(URIError):
            retrieve(url, proxy=f'127.0.0.1:{g.port}', timeout=2, total_timeout=3)
        _settle()
        assert g.received == [], g.received


# --- Finding 5 (error family / argument contract): a public function lets AttributeError out
@pytest.mark.parametrize('arg', ['urn:x', 'ftp://u:p@h/', None, 5])
def test_parse_login_wrong_type_is_typeerror(arg):
    assert 'parse_login' in uri1630.__all__
    with pytest.raises((TypeError, URIError)):
        parse_login(arg)
