//! The soak's readings: the bot's figures after each day, from its metrics port and from
//! Postgres, printed day by day and as slopes a day with their 95% intervals
//! (docs/design/operations.md#the-soak).

use crate::checks::creep::{self, Creep, Reading};
use crate::checks::slope;

/// One figure of a Prometheus text: the sum of the lines of `name` (with `labels`, if given).
fn figure(text: &str, name: &str, labels: Option<&str>) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').map_or((series, ""), |(m, r)| (m, r));
            (metric == name && labels.is_none_or(|want| rest.contains(want))).then(|| value.parse::<f64>().ok())?
        })
        .sum()
}

/// One reading after a day.
pub struct Sample {
    pub day: u32,
    /// Which process of the bot was read (0 until the first restart).
    pub process: usize,
    /// The days that process had played.
    pub days_played: u32,
    pub games: i64,
    pub moves: i64,
    pub resident_mib: f64,
    pub own_mib: f64,
    pub threads: f64,
    pub open_files: f64,
    pub tasks: f64,
    pub pool: f64,
    pub pg_connections: i64,
    pub tables_mib: f64,
}

/// The figures after `day`, read from `process`, which had played `days_played` days.
pub async fn sample(
    (day, process, days_played): (u32, usize, u32),
    metrics_url: &str,
    pool: &sqlx::PgPool,
    db: &str,
) -> anyhow::Result<Sample> {
    let text = reqwest::get(metrics_url).await?.text().await?;
    let (games, moves): (i64, i64) =
        sqlx::query_as("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM moves)").fetch_one(pool).await?;
    // The bot's connections: all of the database's but this benchmark's own.
    let all: i64 =
        sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = $1").bind(db).fetch_one(pool).await?;
    let pg_connections = all - i64::from(pool.size());
    let tables: i64 = sqlx::query_scalar(
        "SELECT (pg_total_relation_size('games') + pg_total_relation_size('moves')
                 + pg_total_relation_size('player_settings') + pg_total_relation_size('channel_settings'))::BIGINT",
    )
    .fetch_one(pool)
    .await?;
    Ok(Sample {
        day,
        process,
        days_played,
        games,
        moves,
        resident_mib: figure(&text, "settai_process_resident_memory_bytes", None) / 1048576.0,
        own_mib: figure(&text, "settai_process_resident_anonymous_memory_bytes", None) / 1048576.0,
        threads: figure(&text, "settai_process_threads", None),
        open_files: figure(&text, "settai_process_open_fds", None),
        tasks: figure(&text, "settai_runtime_tasks", None),
        pool: figure(&text, "settai_db_connections", None),
        pg_connections,
        tables_mib: tables as f64 / 1048576.0,
    })
}

/// A figure whose slope the soak reports.
struct Figure {
    name: &'static str,
    value: fn(&Sample) -> f64,
    /// The slope a day it must not surely exceed, if it is judged (docs/design/operations.md#the-soak):
    /// only the bot's own memory. Resident memory also counts the table's pages as the bot first
    /// reads them (the page cache's, bounded by the file); the others are reported.
    threshold: Option<f64>,
}

const FIGURES: [Figure; 7] = [
    Figure { name: "resident MiB", value: |s| s.resident_mib, threshold: None },
    Figure { name: "its own MiB", value: |s| s.own_mib, threshold: Some(creep::OWN_MEMORY_MIB_PER_DAY) },
    Figure { name: "threads", value: |s| s.threads, threshold: None },
    Figure { name: "open files", value: |s| s.open_files, threshold: None },
    Figure { name: "runtime tasks", value: |s| s.tasks, threshold: None },
    Figure { name: "Postgres connections", value: |s| s.pg_connections as f64, threshold: None },
    Figure { name: "tables MiB", value: |s| s.tables_mib, threshold: None },
];

/// `fit` as the report shows it: the slope and its 95% interval.
fn shown(fit: Option<slope::Fit>) -> String {
    fit.map_or("-".into(), |f| format!("{:+.2} ({:+.2} to {:+.2})", f.slope, f.low, f.high))
}

/// Prints each figure's slope a day after warm-up (all processes, then each alone) and returns
/// the judged figures' creeps for the verdict.
pub fn slopes(samples: &[Sample]) -> Vec<(String, Creep, f64)> {
    let processes = samples.iter().map(|s| s.process + 1).max().unwrap_or(0);
    println!(
        "\nSlopes a day after each process's first {} days (least squares, each process at its own level; \
         95% intervals, Student's t); a judged slope needs {} readings or more:",
        creep::WARM_UP_DAYS,
        creep::MIN_READINGS
    );
    let each: Vec<String> = (1..=processes).map(|p| format!("process {p} alone")).collect();
    println!("\n| figure | all processes | readings | judged | {} |", each.join(" | "));
    println!("|---|---|---|---|{}", "---|".repeat(processes));
    let mut judged = Vec::new();
    for figure in &FIGURES {
        let readings: Vec<Reading> = samples
            .iter()
            .map(|s| Reading { process: s.process, days_played: s.days_played, day: s.day, value: (figure.value)(s) })
            .collect();
        let all = creep::creep(&readings);
        let (fit, n, verdict) = match all {
            Creep::Judged(fit) => (Some(fit), fit.readings, figure.threshold.map(|t| format!("against {t:+.2}"))),
            Creep::TooShort { readings, fit } => (fit, readings, figure.threshold.map(|_| "too few readings".into())),
        };
        let alone: Vec<String> = (0..processes)
            .map(|p| {
                let mine: Vec<Reading> = readings.iter().filter(|r| r.process == p).copied().collect();
                shown(match creep::creep(&mine) {
                    Creep::Judged(fit) => Some(fit),
                    Creep::TooShort { fit, .. } => fit,
                })
            })
            .collect();
        println!(
            "| {} | {} | {n} | {} | {} |",
            figure.name,
            shown(fit),
            verdict.unwrap_or_else(|| "no".into()),
            alone.join(" | ")
        );
        if let Some(threshold) = figure.threshold {
            judged.push((figure.name.to_string(), all, threshold));
        }
    }
    judged
}

/// Every memory figure read, day by day, for the verdict: a metric renamed or gone reads 0
/// ([`figure`] sums no line), which would hide any creep.
pub fn memory(samples: &[Sample]) -> Vec<(String, f64)> {
    samples
        .iter()
        .flat_map(|s| {
            [
                (format!("day {}: resident MiB", s.day), s.resident_mib),
                (format!("day {}: its own MiB", s.day), s.own_mib),
            ]
        })
        .collect()
}

/// Prints the readings, a row a day.
pub fn print_days(samples: &[Sample]) {
    println!(
        "\n| day | games | moves | resident MiB (its own) | threads | open files | runtime tasks | pool connections | \
         Postgres connections | tables MiB |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for s in samples {
        println!(
            "| {} | {} | {} | {:.1} ({:.1}) | {:.0} | {:.0} | {:.0} | {:.0} | {} | {:.1} |",
            s.day,
            s.games,
            s.moves,
            s.resident_mib,
            s.own_mib,
            s.threads,
            s.open_files,
            s.tasks,
            s.pool,
            s.pg_connections,
            s.tables_mib
        );
    }
}
