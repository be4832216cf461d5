"""bench-servers' parts: CPU seconds read from /proc, and the clients and questions split between servers, each
server asked its own share of the questions."""
import os
import threading

from werkzeug.serving import make_server

from app import create_app
from benchmarks.bench_servers import cpu_seconds, loaded
from test_load import Recording


def test_cpu_seconds_grow_with_work_and_are_zero_for_a_gone_process():
    before = cpu_seconds(os.getpid())
    sum(i * i for i in range(2_000_000))
    assert cpu_seconds(os.getpid()) > before > 0
    assert cpu_seconds(2**22 + 7) == 0.0  # above Linux's largest pid


def test_two_servers_share_the_clients_and_each_asks_its_own_questions():
    writers, servers = [Recording(), Recording()], []
    for writer in writers:
        from conftest import make_pipeline

        server = make_server("127.0.0.1", 0, create_app({"TESTING": True}, pipeline=make_pipeline(writer)), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        questions = [f"Who built bridge {i}?" for i in range(10)]
        figures = loaded([f"http://127.0.0.1:{s.server_port}" for s in servers], 3, 1.0, questions)
        assert [f["clients"] for f in figures] == [2, 1] and all(f["answered"] > 0 for f in figures)
        assert set(writers[0].asked) <= set(questions[0::2]) and set(writers[1].asked) <= set(questions[1::2])
    finally:
        for server in servers:
            server.shutdown()
