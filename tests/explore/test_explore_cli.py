"""``zonesim explore``: bad input is one line on stderr and exit code 2, before any server starts."""

import socket

import pytest

from tests.conftest import zonesim


@pytest.fixture
def busy_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


@pytest.mark.parametrize("args,says", [
    (["--content", "no_such_folder"], "--content: no_such_folder: folder not found"),
    (["--threads", "0"], "--threads: 0; this machine allows 1.."),
    (["--host", "no.such.host.invalid"], "--host: 'no.such.host.invalid' is not an address of this machine"),
    (["--draft", "no_such_proposal"], "--draft: no_such_proposal: folder not found"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    proc = zonesim("explore", "--no-browser", "--port", 0, *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and says in proc.stderr and "Traceback" not in proc.stderr


def test_a_port_in_use_is_one_line_and_exit_2(busy_port):
    proc = zonesim("explore", "--no-browser", "--port", busy_port)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and f"--port: cannot listen on 127.0.0.1:{busy_port}" in proc.stderr
