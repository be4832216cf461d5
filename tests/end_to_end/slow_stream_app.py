"""An app whose writer streams slowly (ten pieces, 0.3 s apart), for `flask --app ... serve` in the shutdown test."""
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]

from app import create_app  # noqa: E402
from conftest import FakeWriter, make_pipeline  # noqa: E402

WORDS = "Fleming discovered penicillin in 1928 [1]."
app = create_app({"TESTING": True}, pipeline=make_pipeline(FakeWriter("offline", [WORDS] * 10, delay=0.3)))
