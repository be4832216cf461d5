"""Every upload read in a child process on a clock, as PDFs always were: a file built to be slow (a DOCX of a million
paragraphs, a notebook nested as deep as it goes) is stopped at the limit, its job fails with a message naming
it, and the worker goes on to the next job. The child is spawned fresh (no threads, locks or models of the server
inherited), reads the file with parse_file and sends back what it read, or the refusal it judged. A file under
IN_PROCESS_BYTES is read in the worker itself: even at the zip ratio a DOCX may have, it holds too little to be slow,
and it is spared the child's start (about half a second).
Does not: decide what a file may hold (parsers.py and its readers do), or run jobs (jobs.py).
"""
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as TookTooLong
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from ingest.parsers import parse_file
from ingest.records import Limits, Parsed, RejectedFile, display_name


IN_PROCESS_BYTES = 64 * 1024


def parse_apart(path: Path, filename: str, limits: Limits = Limits()) -> Parsed:
    """parse_file(path, filename, limits) in a child process stopped after limits.parse_timeout_s seconds."""
    if Path(path).stat().st_size < IN_PROCESS_BYTES:
        return parse_file(Path(path), filename, limits)
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        return pool.submit(parse_file, Path(path), filename, limits).result(timeout=limits.parse_timeout_s)
    except TookTooLong:
        raise RejectedFile(f"{display_name(filename)} took longer than {limits.parse_timeout_s:g} s to read, the "
                           "limit for any file; split it into smaller files, or save it in a simpler format "
                           "(plain text or Markdown)") from None
    except BrokenProcessPool:
        raise RejectedFile(f"{display_name(filename)} could not be read: reading it used more than this server "
                           "allows; split it into smaller files") from None
    finally:
        for process in list(getattr(pool, "_processes", {}).values()):  # a child still reading is stopped
            process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
