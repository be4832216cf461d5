"""Command-line tasks that time and load the server, run as `flask --app app <command>`: bench, bench-ingest,
bench-question, bench-servers, load. Each prints its figures, the last line one JSON object.
"""
import json
from pathlib import Path

import click

from flask.cli import with_appcontext

from configuration.settings import current
from benchmarks.load import load_command


@click.command("bench")
@click.option("--sizes", default="10000,100000,1000000", show_default=True, help="Corpus sizes in chunks, comma-separated.")
@click.option("--queries", default=50, show_default=True, help="Queries per measurement.")
@click.option("--no-compare", is_flag=True, help="Skip rank_bm25 (slow and memory-hungry at 1M chunks).")
@click.option("--worker-chunks", default=100_000, show_default=True, help="Index size for the worker memory figure.")
@click.option("--backend", type=click.Choice(["embedded", "postgres"]), default="embedded", show_default=True,
              help="postgres: PostgreSQL + pgvector beside the embedded figures (DATABASE_URL, else a pgserver).")
@click.option("--hnsw-max", default=100_000, show_default=True,
              help="With --backend postgres: the largest size that also builds HNSW indexes (slow on 2 cores).")
@click.option("--scale", default="", help="With --backend postgres: instead, load libraries of these many chunks into "
              "PostgreSQL and search them (comma-separated; 1000000 takes about an hour on 2 cores).")
@click.option("--sweep", default="", help="With --scale: also rebuild HNSW at the first size with these m:ef_construction "
              "pairs (comma-separated, e.g. 16:128,24:100) and measure each.")
@with_appcontext
def bench_command(sizes: str, queries: int, no_compare: bool, worker_chunks: int, backend: str, hnsw_max: int,
                  scale: str, sweep: str):
    """Per-stage latency, build time, memory, and BM25 against rank_bm25; the last line is JSON."""
    if backend == "postgres" and scale:
        return bench_scale_command(numbers(scale, "--scale"), [tuple(numbers(pair, "--sweep", ":")) for pair in
                                                               sweep.split(",") if pair])
    if backend == "postgres":
        return bench_postgres_command([int(s) for s in sizes.split(",") if s], hnsw_max)
    from benchmarks import benchmark
    from search.embedding import Embedder, resolve_model
    from checks.judge import AnswerabilityJudge
    from writers.offline import ExtractiveWriter

    settings = current()
    embedder = Embedder.load(settings.models.embedding_model, settings.models.runtime)
    judge = (AnswerabilityJudge.load(Path(settings.models.judge_dir), settings.models.runtime)
             if settings.models.judge_dir else None)
    report = benchmark.run([int(s) for s in sizes.split(",") if s], embedder, ExtractiveWriter(embedder),
                           resolve_model(settings.models.embedding_model), queries, not no_compare,
                           judged=ExtractiveWriter(embedder, judge=judge) if judge else None)
    stages = report["query_stages"]
    if judge:
        click.echo(f"offline answer p50: {stages['generate_offline_p50_ms']:.0f} ms without the judge, "
                   f"{stages['generate_offline_judged_p50_ms']:.0f} ms with it (+{stages['judge_added_p50_ms']:.0f} ms); "
                   f"with a second look at 15 more passages {stages['generate_offline_second_look_p50_ms']:.0f} ms p50, "
                   f"{stages['generate_offline_second_look_p95_ms']:.0f} ms p95")
    report["worker"] = benchmark.worker_memory(worker_chunks, settings.models.embedding_model, settings.models.classifier_dir)
    for size, figures in report["sizes"].items():
        click.echo(f"{int(size):>9,} chunks: BM25 {figures['bm25_p50_ms']:.1f} ms"
                   + (f" ({figures['bm25_speedup_vs_rank_bm25']}x rank_bm25, max diff {figures['bm25_max_abs_diff']:.1e})"
                      if "bm25_speedup_vs_rank_bm25" in figures else "")
                   + f", FAISS flat {figures['faiss_flat_p50_ms']:.1f} ms, HNSW {figures['faiss_hnsw_p50_ms']:.1f} ms"
                   f" (recall@10 {figures['faiss_hnsw_recall@10']})")
    click.echo(f"worker with models and {worker_chunks:,} chunks: {report['worker']['rss_mb']:.0f} MB RSS")
    click.echo(json.dumps(report))


def numbers(text: str, option: str, sep: str = ",") -> list[int]:
    try:
        found = [int(part) for part in text.split(sep) if part.strip()]
    except ValueError:
        raise click.BadParameter(f"give whole numbers separated by '{sep}', not {text!r}", param_hint=option) from None
    if not found or min(found) < 1:
        raise click.BadParameter("give numbers of 1 or more", param_hint=option)
    return found


def bench_scale_command(sizes: list[int], sweep: list[tuple[int, int]]):
    """PostgreSQL at size (benchmarks/bench_pg_scale.py); the last line is JSON."""
    from benchmarks import bench_pg_scale
    from benchmarks.bench_postgres import server_url
    from search.embedding import Embedder
    from search.library import load

    settings = current()
    library = load(Path(settings.library.dir), Embedder.load(settings.models.embedding_model, settings.models.runtime))
    url, server = server_url()
    try:
        figures = bench_pg_scale.report(url, library, sizes, sweep, log=click.echo)
    finally:
        if server is not None:
            server.cleanup()
    for row in figures["sizes"]:
        click.echo(scale_lines(row))
    click.echo(json.dumps(figures))


def scale_lines(row: dict) -> str:
    """A size's figures in words: build, disk, searches (p50/p95 ms), HNSW recall, a write."""
    def ms(name):
        return f"{row[name]['p50_ms']:.1f}/{row[name]['p95_ms']:.1f}"

    build, disk = row["build_s"], row["disk_mb"]
    lines = [f"{row['chunks']:,} chunks ({row['real_vectors']:,} real vectors): built in {build['total']} s (HNSW "
             f"{build['hnsw']} s, postings {build['postings']} s + index {build['postings index']} s); on disk "
             f"{disk['database']:,} MB: chunks {disk['chunks']:,} + TOAST {disk['chunks_toast']:,}, HNSW {disk['hnsw']:,},"
             f" postings {disk['postings']:,} + index {disk['postings_index']:,}, terms {disk['terms']:,}",
             f"  search (one statement) {ms('search')} ms, with a filter {ms('search_filtered')} ms, skipping common "
             f"words {ms('search_skip_common')}; BM25 alone {ms('bm25')} (skipping {ms('bm25_skip_common')}), "
             f"nearest alone {ms('nearest')}, filtered {ms('nearest_filtered')} ({row['nearest_filtered_rows']}"
             f" rows of 200); passages {ms('passages')}; exact scan {ms('exact_scan')}  [p50/p95 ms]"]
    for name, by_ef in row["hnsw"].items():
        build_note = f" (built in {by_ef['build_s']} s, {by_ef['index_mb']} MB)" if "build_s" in by_ef else ""
        lines.append(f"  HNSW {name}{build_note}: " + ", ".join(
            f"{ef} recall@10 {v['recall@10']} (top 10 in 200: {v['top10_in_candidates']}, {v['p50_ms']:.1f} ms)"
            for ef, v in by_ef.items() if ef.startswith("ef")))
    lines.append(f"  one document of 10 passages: added in {row['write']['add_s']} s, removed in {row['write']['remove_s']} s")
    return "\n".join(lines)


def bench_postgres_command(sizes: list[int], hnsw_max: int):
    """The PostgreSQL backend beside the embedded one (benchmarks/bench_postgres.py); the last line is JSON."""
    from benchmarks import bench_postgres
    from benchmarks.load import QUESTIONS, read_questions
    from search.embedding import Embedder
    from search.library import load

    settings = current()
    library = load(Path(settings.library.dir), Embedder.load(settings.models.embedding_model, settings.models.runtime))
    asked = Path("data/eval/wiki-asked/queries.jsonl")  # a hundred different questions, else the eight built in
    questions = read_questions(asked)[:100] if asked.exists() else list(QUESTIONS)
    figures = bench_postgres.report(sizes, hnsw_max, library, questions, 50, log=click.echo)
    for row in figures["dense"]:
        line = f"{row['chunks']:>9,} vectors: FAISS flat {row['faiss_flat']['p50_ms']:.1f}/{row['faiss_flat']['p95_ms']:.1f}"
        line += f" ms, pgvector exact {row['pgvector_exact']['p50_ms']:.1f}/{row['pgvector_exact']['p95_ms']:.1f} ms"
        if "pgvector_hnsw" in row:
            line += (f"; HNSW FAISS {row['faiss_hnsw']['p50_ms']:.1f}/{row['faiss_hnsw']['p95_ms']:.1f} ms (recall@10 "
                     f"{row['faiss_hnsw_recall@10']}), pgvector {row['pgvector_hnsw']['p50_ms']:.1f}/"
                     f"{row['pgvector_hnsw']['p95_ms']:.1f} ms (recall@10 {row['pgvector_hnsw_recall@10']}, "
                     f"{row['pgvector_hnsw_rows']} of 200 rows, built in {row['pgvector_hnsw_build_s']} s)")
        click.echo(line + "  [p50/p95]")
    hybrid, ingest, load_run = figures["hybrid"], figures["ingest"], figures["concurrency"]
    click.echo(f"hybrid search, default library ({hybrid['chunks']:,} chunks, imported in {hybrid['import_s']} s), "
               f"{hybrid['questions']} questions: embedded {hybrid['embedded']['p50_ms']:.1f}/"
               f"{hybrid['embedded']['p95_ms']:.1f} ms, postgres {hybrid['postgres']['p50_ms']:.1f}/"
               f"{hybrid['postgres']['p95_ms']:.1f} ms ({hybrid['postgres']['p50_ms'] / hybrid['embedded']['p50_ms']:.2f}x "
               f"at p50); same top 5: {hybrid['same_top5']}")
    for name in ("embedded", "postgres"):
        click.echo(f"  {name} stages p50: " + ", ".join(f"{k[:-7]} {v} ms" for k, v in hybrid[name].items()
                                                        if k.endswith("_p50_ms") and k != "p50_ms"))
    click.echo(f"ingest: embedded {ingest['embedded']['pages_per_minute']} pages/min, "
               f"postgres {ingest['postgres']['pages_per_minute']} pages/min")
    click.echo(f"8 clients, two app servers on one database: p50 {load_run['p50_ms']} ms, p95 {load_run['p95_ms']} ms, "
               f"{load_run['answered']} answered, {load_run['errors']} errors")
    click.echo(json.dumps(figures))


@click.command("bench-ingest")
@click.option("--pages", default=200, show_default=True, help="Pages of the generated PDF (about 500 words each).")
@click.option("--no-space-mb", type=float, default=None,
              help="Instead, ingest a text of this many MB without a space or newline, and print peak memory.")
@click.option("--book", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Instead, ingest the first --records records of this JSONL book (the Shulchan Arukh's) and embed "
                   "its passages in book order and longest first.")
@click.option("--records", default=1000, show_default=True)
@with_appcontext
def bench_ingest_command(pages: int, no_space_mb: float | None, book: Path | None, records: int):
    """PDF pages per minute: parsing alone, and the whole ingest job; the last line is JSON."""
    from benchmarks.bench_ingest import bench_book, bench_ingest, bench_no_space, bench_pdf
    from search.embedding import Embedder

    if book is not None:
        found = bench_book(Embedder.load(current().models.embedding_model, current().models.runtime), book, records)
        for name in ("ingest", "book_order", "by_length"):
            click.echo(f"{name}: {found['passages']:,} passages in {found[name]['seconds']} s = "
                       f"{found[name]['passages_per_minute']:,} passages/min")
        click.echo(json.dumps({"book": found}))
        return

    if no_space_mb is not None:
        found = bench_no_space(current().models.embedding_model, no_space_mb)
        click.echo(f"no-space text: {found['megabytes']:g} MB -> {found['chunks']:,} chunks, the longest "
                   f"{found['max_chunk_chars']:,} characters, in {found['seconds']} s; peak RSS {found['peak_rss_mb']:,} MB "
                   f"({found['rss_loaded_mb']:,} MB with the embedder loaded, before the ingest)")
        click.echo(json.dumps({"no_space": found}))
        return
    parse = bench_pdf(pages)
    click.echo(f"parse: {parse['pages']} pages in {parse['seconds']} s = {parse['pages_per_minute']:,} pages/min")
    full = bench_ingest(Embedder.load(current().models.embedding_model, current().models.runtime), pages)
    click.echo(f"ingest: {full['pages']} pages ({full['chunks']} chunks) in {full['seconds']} s = "
               f"{full['pages_per_minute']:,} pages/min")
    click.echo(json.dumps({"parse": parse, "ingest": full}))


@click.command("bench-warm")
@click.option("--passages", default=1000, show_default=True, help="The library's first passages to warm.")
@with_appcontext
def bench_warm_command(passages: int):
    """What warming the library at its build costs: passages per minute as a build warms and as the background
    repair does, and the minutes the whole library takes at each; the last line is JSON."""
    from flask import current_app

    from benchmarks.bench_warm import bench_warm
    from postgres.backend import open_library
    from search.embedding import Embedder

    settings = current()
    library = open_library(settings, Embedder.load(settings.models.embedding_model, settings.models.runtime))
    found = bench_warm(library, current_app.extensions["sentence_forms"], passages)
    for name in ("build", "background"):
        click.echo(f"{name} (batch {found[name]['batch']}): {found['passages']:,} passages ({found['texts']:,} texts) "
                   f"in {found[name]['seconds']} s = {found[name]['passages_per_minute']:,} passages/min; the "
                   f"library's {found['library_passages']:,} in about {found[name]['library_minutes']} min")
    click.echo(json.dumps({"warm": found}))


@click.command("bench-question")
@click.option("--questions", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("data/eval/wiki-asked/queries.jsonl"), show_default=True,
              help="The questions asked (a BEIR queries.jsonl, or one a line).")
@click.option("--limit", default=60, show_default=True, help="Ask only the first this many.")
@with_appcontext
def bench_question_command(source: Path, limit: int):
    """CPU per question and where it goes, the judge in torch and in ONNX Runtime, and how their answers agree
    (benchmarks/bench_question.py); the last line is JSON."""
    from flask import current_app

    from benchmarks.bench_question import compare
    from benchmarks.load import read_questions

    questions = read_questions(source)[:limit]
    if not questions:
        raise click.BadParameter(f"{source} holds no questions", param_hint="--questions")
    loading = current_app.extensions["rag"]
    loading.load()
    figures = compare(loading.services.pipeline, questions, threads=current().models.torch_threads)
    for runtime in ("torch", "onnx"):
        if runtime in figures:
            run = figures[runtime]
            click.echo(f"{runtime}: {run['cpu_ms_per_question']} ms of CPU a question (" + ", ".join(
                f"{name} {ms}" for name, ms in run["cpu_ms_by_part"].items()) + f"), wall p50 {run['wall_p50_ms']} ms, "
                f"{run['threads_a_call']} thread(s) a model call")
    if "agreement" in figures:
        click.echo(f"the same decision on {figures['agreement']['decisions']:.1%} of {len(questions)} questions, "
                   f"the same answer on {figures['agreement']['answers']:.1%}")
    click.echo(json.dumps({"question": figures}))


@click.command("bench-servers")
@click.option("--clients", default=8, show_default=True, help="Clients asking at once, split between the servers.")
@click.option("--seconds", default=60.0, show_default=True, help="How long each run loads its servers.")
@click.option("--questions", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("data/eval/wiki-asked/queries.jsonl"), show_default=True,
              help="The questions asked (a BEIR queries.jsonl, or one a line), each once before any again.")
@with_appcontext
def bench_servers_command(clients: int, seconds: float, source: Path):
    """One app server, then two, on one PostgreSQL (benchmarks/bench_servers.py); the last line is JSON."""
    from benchmarks import bench_servers
    from benchmarks.load import read_questions

    if not 1 <= seconds <= 3600:
        raise click.BadParameter("each run loads its servers from 1 second to an hour", param_hint="--seconds")
    figures = bench_servers.report(Path(current().library.dir), clients, seconds, read_questions(source),
                                   log=click.echo)
    for run in figures["runs"]:
        click.echo(f"{run['servers']} server(s): {run['requests_per_second']} questions/s, p50 {run['p50_ms']:,.0f} ms, "
                   f"p95 {run['p95_ms']:,.0f} ms, {run['errors']} errors; per question {run['app_cpu_ms_per_question']}"
                   f" ms of app CPU and {run['database_cpu_ms_per_question']} ms of database CPU")
    click.echo(json.dumps(figures))


commands = [bench_command, bench_ingest_command, bench_warm_command, bench_question_command, bench_servers_command,
            load_command]
