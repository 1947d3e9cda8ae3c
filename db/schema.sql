-- gpuplan database schema, version 1 (PRAGMA user_version = 1).
--
-- This is the schema a new database is created with.  Later versions add
-- numbered migrations in db/migrate.c; never edit a released version in
-- place.  The file stays readable with the sqlite3 shell:
--   sqlite3 ~/.local/share/gpuplan/gpuplan.db '.tables'
--
-- Units: watts, MHz, GiB for GPU memory, MiB for RAM, milli-cores for CPU,
-- milli-GPU (1000 = one whole device) for GPU shares, seconds for time.

-- GPU models (SPEC 3.1).  alpha_w_per_mhz and beta feed the CATS power and
-- JCT models; idle_w/max_w feed EOPC; price_usd feeds CapEx (0 = unknown).
CREATE TABLE gpu_profile (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    mem_gib         REAL NOT NULL CHECK (mem_gib > 0),
    idle_w          REAL NOT NULL CHECK (idle_w >= 0),
    max_w           REAL NOT NULL CHECK (max_w >= idle_w),
    sleep_w         REAL NOT NULL DEFAULT 0 CHECK (sleep_w >= 0),
    f_min_mhz       REAL NOT NULL CHECK (f_min_mhz > 0),
    f_max_mhz       REAL NOT NULL CHECK (f_max_mhz >= f_min_mhz),
    alpha_w_per_mhz REAL NOT NULL CHECK (alpha_w_per_mhz >= 0),
    beta            REAL NOT NULL CHECK (beta > 0),
    price_usd       REAL NOT NULL DEFAULT 0 CHECK (price_usd >= 0),
    tput_class      TEXT NOT NULL DEFAULT ''
);

-- CPU package models (PWR eq. 1): a package of `cores` physical cores draws
-- idle_w when all its cores idle and max_w otherwise.
CREATE TABLE cpu_profile (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    cores   INTEGER NOT NULL CHECK (cores > 0),
    idle_w  REAL NOT NULL CHECK (idle_w >= 0),
    max_w   REAL NOT NULL CHECK (max_w >= idle_w)
);

CREATE TABLE cluster (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    source  TEXT,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Servers.  gpu_mem_gib lists per-device memory ("16|16|32") when devices
-- of one server differ; empty means the profile's.
CREATE TABLE node (
    cluster_id     INTEGER NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL,
    name           TEXT NOT NULL,
    gpu_profile_id INTEGER REFERENCES gpu_profile(id),
    gpu_count      INTEGER NOT NULL CHECK (gpu_count >= 0),
    cpu_milli      INTEGER NOT NULL CHECK (cpu_milli >= 0),
    ram_mib        INTEGER NOT NULL CHECK (ram_mib >= 0),
    cpu_profile_id INTEGER REFERENCES cpu_profile(id),
    static_w       REAL NOT NULL DEFAULT 0,
    other_w        REAL NOT NULL DEFAULT 0,
    gpu_mem_gib    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (cluster_id, idx)
) WITHOUT ROWID;
CREATE INDEX node_gpu_profile ON node(gpu_profile_id);
CREATE INDEX node_cpu_profile ON node(cpu_profile_id);

CREATE TABLE trace (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    source  TEXT,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Tasks.  util is the utilization series as little-endian float32 percent
-- values, one every util_period_s seconds of the task's own progress
-- (NULL when the trace has only the summaries util_mean/peak/first).
CREATE TABLE task (
    trace_id      INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    name          TEXT NOT NULL,
    arrival_s     REAL NOT NULL CHECK (arrival_s >= 0),
    duration_s    REAL NOT NULL CHECK (duration_s >= 0),
    num_gpu       INTEGER NOT NULL CHECK (num_gpu BETWEEN 0 AND 16),
    gpu_milli     INTEGER NOT NULL CHECK (gpu_milli BETWEEN 0 AND 1000),
    gpu_mem_gib   REAL NOT NULL CHECK (gpu_mem_gib >= 0),
    cpu_milli     INTEGER NOT NULL CHECK (cpu_milli >= 0),
    ram_mib       INTEGER NOT NULL CHECK (ram_mib >= 0),
    gpu_spec      TEXT NOT NULL DEFAULT '',
    qos           TEXT NOT NULL DEFAULT '',
    kappa         REAL NOT NULL DEFAULT 1.2 CHECK (kappa >= 1),
    model         TEXT NOT NULL DEFAULT '',
    batch_size    INTEGER NOT NULL DEFAULT 0,
    min_tput      REAL NOT NULL DEFAULT 0,
    util_mean     REAL NOT NULL DEFAULT 0,
    util_peak     REAL NOT NULL DEFAULT 0,
    util_first    REAL NOT NULL DEFAULT 0,
    util_period_s REAL NOT NULL DEFAULT 0,
    util          BLOB,
    PRIMARY KEY (trace_id, idx)
) WITHOUT ROWID;

-- Throughput catalogs (Gavel shape): one row per (accelerator, job) solo
-- measurement (co_model = '') or colocated pair.
CREATE TABLE tput_catalog (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    source  TEXT,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE tput_entry (
    catalog_id    INTEGER NOT NULL REFERENCES tput_catalog(id) ON DELETE CASCADE,
    accel         TEXT NOT NULL,
    model         TEXT NOT NULL,
    batch_size    INTEGER NOT NULL,
    scale         INTEGER NOT NULL,
    co_model      TEXT NOT NULL DEFAULT '',
    co_batch_size INTEGER NOT NULL DEFAULT 0,
    co_scale      INTEGER NOT NULL DEFAULT 0,
    tput          REAL NOT NULL CHECK (tput >= 0),
    co_tput       REAL NOT NULL DEFAULT 0 CHECK (co_tput >= 0)
);
CREATE INDEX tput_entry_catalog ON tput_entry(catalog_id);

-- Snapshots: a cluster with the tasks running on it at one instant.  The
-- running tasks are kept as a trace of their own (trace_id).
CREATE TABLE snapshot (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    cluster_id INTEGER NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
    trace_id   INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
    time_s     REAL NOT NULL DEFAULT 0,
    created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE snapshot_placement (
    snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
    task_idx    INTEGER NOT NULL,
    node_idx    INTEGER NOT NULL,
    gpu_idx     INTEGER NOT NULL,
    gpu_milli   INTEGER NOT NULL
);
CREATE INDEX snapshot_placement_snapshot ON snapshot_placement(snapshot_id);

-- Saved runs (SPEC 6).  A run names its trace and cluster; deleting either
-- deletes the runs made on it.
CREATE TABLE run (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL,
    policy         TEXT NOT NULL,
    options        TEXT NOT NULL DEFAULT '',
    trace_id       INTEGER NOT NULL REFERENCES trace(id) ON DELETE CASCADE,
    cluster_id     INTEGER NOT NULL REFERENCES cluster(id) ON DELETE CASCADE,
    seed           INTEGER NOT NULL DEFAULT 0,
    engine_version TEXT NOT NULL,
    power_model    TEXT NOT NULL DEFAULT '',
    created        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX run_trace ON run(trace_id);
CREATE INDEX run_cluster ON run(cluster_id);
CREATE TABLE run_metric (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  REAL NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE TABLE run_point (
    run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,
    t_s            REAL NOT NULL,
    active_gpus    REAL NOT NULL,
    awake_gpus     REAL NOT NULL,
    active_servers REAL NOT NULL,
    power_w        REAL NOT NULL,
    gpu_w          REAL NOT NULL,
    cpu_w          REAL NOT NULL,
    static_w       REAL NOT NULL,
    frag           REAL NOT NULL,
    alloc_ratio    REAL NOT NULL,
    queued         REAL NOT NULL,
    mean_freq_mhz  REAL NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE run_outcome (
    run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    task_idx     INTEGER NOT NULL,
    wait_s       REAL NOT NULL,
    start_s      REAL NOT NULL,
    end_s        REAL NOT NULL,
    jct_s        REAL NOT NULL,
    slowdown     REAL NOT NULL,
    sla_violated INTEGER NOT NULL,
    node_idx     INTEGER NOT NULL,
    gpus         TEXT NOT NULL,
    PRIMARY KEY (run_id, task_idx)
) WITHOUT ROWID;
CREATE TABLE run_decision (
    run_id   INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    t_s      REAL NOT NULL,
    task_idx INTEGER NOT NULL,
    node_idx INTEGER NOT NULL,
    gpus     TEXT NOT NULL,
    reason   TEXT,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
