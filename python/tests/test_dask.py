import numpy as np
import pytest

import polyrt

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pytest.importorskip("polyrt.dask")
import polyrt.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_partitions_equal_one_evaluate(client, examples):
    program = polyrt.compile(examples / "users.polydat")
    frame = polyrt.dask.read_program(program, 100, 50_100, npartitions=7, threads=1)
    assert frame.npartitions == 7
    assert frame.known_divisions
    got = frame.compute()
    want = program.batch(threads=1).to_pandas(100, 50_100)
    assert list(got.index) == list(range(100, 50_100))
    for name in want.columns:
        assert np.array_equal(got[name].to_numpy(), want[name].to_numpy()), name
    # The partitions ran in the workers' processes.
    assert len(client.scheduler_info()["workers"]) == 2


def test_to_parquet_writes_a_partitioned_data_set(client, examples, tmp_path):
    import pyarrow.parquet as pq

    program = polyrt.compile(examples / "users.polydat")
    frame = polyrt.dask.read_program(
        program, 0, 20_000, npartitions=4, outputs=["user_id", "email"], externs={"tenant": 3}
    )
    frame.to_parquet(tmp_path / "users", write_index=False)
    parts = sorted(p.name for p in (tmp_path / "users").iterdir() if p.suffix == ".parquet")
    assert len(parts) == 4
    read = pq.read_table(tmp_path / "users").to_pandas()
    want = program.batch(["user_id", "email"], externs={"tenant": 3}).to_pandas(0, 20_000)
    assert list(read["email"]) == list(want["email"])
    assert np.array_equal(read["user_id"].to_numpy(), want["user_id"].to_numpy())


def test_bad_arguments():
    program = polyrt.compile("input c: u64\nx := hash(c)\n")
    with pytest.raises(ValueError):
        polyrt.dask.read_program(program, 0, 10, npartitions=0)
    with pytest.raises(polyrt.WriteError):
        polyrt.dask.read_program(program, 0, 10, npartitions=2, outputs=["nope"])
    # The rules of every range and list of names (a sibling of Batch's).
    with pytest.raises(polyrt.WriteError, match="stop is before start"):
        polyrt.dask.read_program(program, 10, 0, npartitions=2)
    with pytest.raises(TypeError, match="wrap it in"):
        polyrt.dask.read_program(program, 0, 10, npartitions=2, outputs="x")


def test_a_changed_data_file_is_read_again_and_vector_externs_are_keys(tmp_path):
    # In this process (no cluster): the cache of compiled batches must not
    # serve the rows of a data file as it was (it was keyed by source text).
    (tmp_path / "people.csv").write_text("name\nada\n")
    path = tmp_path / "p.polydat"
    path.write_text('input c\nn := csv_field(c, "people.csv", "name")\n')
    first = polyrt.dask.read_program(polyrt.compile(path), 0, 2, npartitions=1)
    assert list(first.compute(scheduler="sync")["n"]) == ["ada", "ada"]
    (tmp_path / "people.csv").write_text("name\nalan\n")
    again = polyrt.dask.read_program(polyrt.compile(path), 0, 2, npartitions=1)
    assert list(again.compute(scheduler="sync")["n"]) == ["alan", "alan"]
    # A vec_f32 extern as a list or an array (once "unhashable type").
    program = polyrt.compile("input c\nextern query: vec_f32\nn := query as str\n")
    for query in ([3.0, 4.5], np.array([3.0, 4.5], dtype=np.float32)):
        frame = polyrt.dask.read_program(program, 0, 2, npartitions=1, externs={"query": query})
        assert list(frame.compute(scheduler="sync")["n"]) == ["[3,4.5]", "[3,4.5]"]
