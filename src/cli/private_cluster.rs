//! settai's own PostgreSQL, for a machine where none answers (README: "The database"): a
//! cluster in `<data folder>/postgres`, made and started with the distribution's installed
//! programs (on Debian under `/usr/lib/postgresql/<version>/bin`, not on PATH), reached only
//! over a Unix socket in a folder only its owner may enter.
//!
//! It is started once and left running (like a system service): `serve` and `play` share it,
//! and one of them stopping never pulls it from the other. Starting is under a lock in the data
//! folder, so two first runs at once make one cluster.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The longest path a Unix socket may have (`sun_path` is 108 bytes with its final NUL).
const SOCKET_PATH_MAX: usize = 107;

/// The socket's name in its folder (PostgreSQL's, for the default port).
const SOCKET_NAME: &str = ".s.PGSQL.5432";

/// Why the private cluster could not be made or started.
#[derive(Debug, thiserror::Error)]
pub enum PrivateError {
    /// PostgreSQL refuses to run as root.
    #[error(
        "nothing answers at the default database address, and settai will not make a PostgreSQL of its own as \
         root (PostgreSQL refuses to run as root). Run it as an ordinary user instead: {command}; or set \
         DATABASE_URL to a PostgreSQL server"
    )]
    AsRoot {
        /// The exact command to run instead.
        command: String,
    },
    /// No PostgreSQL programs were found.
    #[error(
        "nothing answers at the default database address, and PostgreSQL is not installed for settai to keep one of \
         its own: install it (`sudo apt install postgresql` on Debian and Ubuntu, `sudo dnf install \
         postgresql-server` on Fedora, `sudo pacman -S postgresql` on Arch, `brew install postgresql` on macOS) and \
         run settai again, or set DATABASE_URL to a PostgreSQL server"
    )]
    NotInstalled,
    /// The cluster was made by a major version whose programs are gone.
    #[error(
        "settai's PostgreSQL in {cluster} was made by PostgreSQL {version}, whose programs are no longer installed \
         (a major upgrade of the system): install PostgreSQL {version} again (e.g. `sudo apt install \
         postgresql-{version}`), or move the data over as the README's \"The database\" says"
    )]
    ProgramsGone {
        /// The cluster's folder.
        cluster: PathBuf,
        /// Its major version.
        version: String,
    },
    /// A step failed; its own output says why.
    #[error("settai's PostgreSQL in {cluster}: {step} failed: {output}")]
    Failed {
        /// The cluster's folder.
        cluster: PathBuf,
        /// Which step.
        step: &'static str,
        /// What the program said (the last lines).
        output: String,
    },
    /// A file or folder could not be made or read.
    #[error("settai's PostgreSQL: {what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> PrivateError {
    let what = what.into();
    move |source| PrivateError::Io { what, source }
}

/// The folders where distributions put PostgreSQL's programs, besides PATH: Debian and Ubuntu,
/// Red Hat's packages, a source build, Homebrew.
const PROGRAM_GLOBS: [(&str, &str); 5] = [
    ("/usr/lib/postgresql", "bin"),
    ("/usr", "pgsql-"),
    ("/usr/local/pgsql", ""),
    ("/opt/homebrew/opt", "postgresql"),
    ("/usr/local/opt", "postgresql"),
];

/// Every folder that may hold `initdb` and `pg_ctl`.
fn candidate_folders() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    for (base, pattern) in PROGRAM_GLOBS {
        let Ok(entries) = std::fs::read_dir(base) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            match pattern {
                "bin" => folders.push(path.join("bin")),
                "" if name == "bin" => folders.push(path),
                "" => {}
                prefix if name.starts_with(prefix) => folders.push(path.join("bin")),
                _ => {}
            }
        }
    }
    folders
}

/// The major version of the programs in `folder` (`pg_ctl --version`), if they are there.
fn major_version(folder: &Path) -> Option<u32> {
    if !folder.join("initdb").is_file() {
        return None;
    }
    let out = Command::new(folder.join("pg_ctl")).arg("--version").stdin(Stdio::null()).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    // "pg_ctl (PostgreSQL) 15.8 (Debian 15.8-0+deb12u1)"
    let version = text.split(") ").nth(1)?;
    version.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The programs' folder: of the major version `wanted`, else the newest installed.
fn programs(wanted: Option<u32>) -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> =
        candidate_folders().into_iter().filter_map(|f| major_version(&f).map(|v| (v, f))).collect();
    found.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    found.into_iter().find(|(v, _)| wanted.is_none_or(|w| w == *v)).map(|(_, f)| f)
}

/// Whether this process runs as root.
fn as_root() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: geteuid has no preconditions and cannot fail.
        unsafe { libc::geteuid() == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// `text` quoted for a POSIX shell.
fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command to run instead of this one as root.
fn as_user_command(data_dir: &Path) -> String {
    let args: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
    let this = args.join(" ");
    let dir = shell_quote(&data_dir.display().to_string());
    match std::env::var("SUDO_USER").ok().filter(|u| !u.is_empty() && u != "root") {
        Some(user) => format!("`chown -R {user} {dir} && runuser -u {user} -- {this}`"),
        None => format!("`useradd --create-home settai && chown -R settai {dir} && runuser -u settai -- {this}`"),
    }
}

/// Where the cluster's socket lives: in the cluster's own folder when the path fits a socket's
/// limit, else in a folder of its own under /tmp named after the cluster's path (the same for
/// every process).
pub fn socket_folder(cluster: &Path) -> PathBuf {
    if cluster.as_os_str().len() + 1 + SOCKET_NAME.len() <= SOCKET_PATH_MAX {
        return cluster.to_path_buf();
    }
    // FNV-1a: stable across builds, unlike std's hasher.
    let hash = cluster
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let user = std::env::var("USER").unwrap_or_default();
    PathBuf::from(format!(
        "/tmp/settai-{}-{hash:016x}",
        user.chars().filter(char::is_ascii_alphanumeric).collect::<String>()
    ))
}

/// The connection URL of the cluster whose socket is in `folder`.
fn url(folder: &Path) -> String {
    let encoded: String = folder
        .display()
        .to_string()
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("postgres://settai@localhost/settai?host={encoded}")
}

fn answers(socket_folder: &Path) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::net::UnixStream::connect(socket_folder.join(SOCKET_NAME)).is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = socket_folder;
        false
    }
}

/// The last lines of a program's output.
fn tail(out: &std::process::Output) -> String {
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" / ")
}

/// Makes the cluster if it is missing and starts it if it is not running; returns its URL.
pub fn ensure_running(data_dir: &Path) -> Result<String, PrivateError> {
    let refuse_root = || match as_root() {
        true => Err(PrivateError::AsRoot { command: as_user_command(data_dir) }),
        false => Ok(()),
    };
    std::fs::create_dir_all(data_dir).map_err(io(format!("could not create {}", data_dir.display())))?;
    let data_dir = data_dir.canonicalize().map_err(io(format!("could not find {}", data_dir.display())))?;
    let cluster = data_dir.join("postgres");
    let lock_path = data_dir.join("postgres.lock");
    let lock = File::create(&lock_path).map_err(io(format!("could not create {}", lock_path.display())))?;
    lock.lock().map_err(io(format!("could not lock {}", lock_path.display())))?;
    let folder = socket_folder(&cluster);
    let failed =
        |step, out: &std::process::Output| PrivateError::Failed { cluster: cluster.clone(), step, output: tail(out) };
    let programs = match std::fs::read_to_string(cluster.join("PG_VERSION")) {
        Ok(version) => {
            let version = version.trim().to_string();
            programs(version.parse().ok()).ok_or(PrivateError::ProgramsGone { cluster: cluster.clone(), version })?
        }
        Err(_) => {
            refuse_root()?;
            let programs = programs(None).ok_or(PrivateError::NotInstalled)?;
            // Made aside and renamed, so that a run stopped half-way leaves no half cluster.
            let fresh = data_dir.join("postgres.new");
            let _ = std::fs::remove_dir_all(&fresh);
            let out = Command::new(programs.join("initdb"))
                .arg("-D")
                .arg(&fresh)
                // Trust is safe here: the only way in is the socket, in a folder only its
                // owner may enter (the cluster's, or one made 0700 below).
                .args(["-U", "settai", "--auth=trust", "-E", "UTF8", "--locale=C"])
                .stdin(Stdio::null())
                .output()
                .map_err(io("could not run initdb"))?;
            if !out.status.success() {
                return Err(failed("initdb", &out));
            }
            std::fs::rename(&fresh, &cluster).map_err(io(format!("could not rename {}", fresh.display())))?;
            programs
        }
    };
    if answers(&folder) {
        return Ok(url(&folder));
    }
    refuse_root()?;
    if folder != cluster {
        std::fs::create_dir_all(&folder).map_err(io(format!("could not create {}", folder.display())))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700))
                .map_err(io(format!("could not restrict {}", folder.display())))?;
        }
    }
    let options = format!(
        "-c listen_addresses= -c unix_socket_permissions=0700 -k {}",
        shell_quote(&folder.display().to_string())
    );
    // `-l`: the server's output goes to its log, so it holds none of this process's pipes, and
    // pg_ctl starts it in a session of its own: it outlives this process.
    let out = Command::new(programs.join("pg_ctl"))
        .arg("-D")
        .arg(&cluster)
        .arg("-l")
        .arg(data_dir.join("postgres.log"))
        .args(["-w", "-t", "60", "-o", &options, "start"])
        .stdin(Stdio::null())
        .output()
        .map_err(io("could not run pg_ctl"))?;
    if !out.status.success() && !answers(&folder) {
        return Err(failed("pg_ctl start", &out));
    }
    Ok(url(&folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_cluster_path_gets_a_short_socket_folder_that_every_process_agrees_on() {
        let short = Path::new("/home/parent/settai/data/postgres");
        assert_eq!(socket_folder(short), short);
        let long = PathBuf::from(format!("/home/parent/{}/data/postgres", "a".repeat(90)));
        let folder = socket_folder(&long);
        assert!(
            folder.starts_with("/tmp") && folder.join(SOCKET_NAME).as_os_str().len() <= SOCKET_PATH_MAX,
            "{folder:?}"
        );
        assert_eq!(socket_folder(&long), folder);
    }

    #[test]
    fn a_cluster_whose_programs_are_gone_names_the_version_to_install() {
        let data = std::env::temp_dir().join(format!("settai-gone-{}", std::process::id()));
        std::fs::create_dir_all(data.join("postgres")).unwrap();
        std::fs::write(data.join("postgres/PG_VERSION"), "9\n").unwrap();
        let said = ensure_running(&data).expect_err("no PostgreSQL 9 is installed").to_string();
        std::fs::remove_dir_all(&data).unwrap();
        assert!(said.contains("made by PostgreSQL 9,") && said.contains("postgresql-9"), "{said}");
    }

    #[test]
    fn without_postgresql_the_packages_are_named() {
        let said = PrivateError::NotInstalled.to_string();
        for package in
            ["apt install postgresql", "dnf install postgresql-server", "pacman -S postgresql", "brew install"]
        {
            assert!(said.contains(package), "{said}");
        }
    }

    #[test]
    fn the_url_reaches_the_socket_folder() {
        use std::str::FromStr;
        let options = sqlx::postgres::PgConnectOptions::from_str(&url(Path::new("/tmp/a b/c"))).unwrap();
        assert_eq!(options.get_socket(), Some(&PathBuf::from("/tmp/a b/c")));
        assert_eq!((options.get_username(), options.get_database()), ("settai", Some("settai")));
    }
}
