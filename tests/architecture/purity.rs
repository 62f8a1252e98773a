//! The core's code outside its tests is pure, and its face is chosen: what it may not do, the
//! check that finds it, and the check's own test.

use std::path::{Path, PathBuf};

use crate::{modules, read, root, without_tests};

/// What the core's code outside its tests may not do, each with the words that give it away:
/// no I/O, no async, no clock it reads itself (the caller hands one in), no state kept between
/// calls in a static or a thread (the caller holds it: a `Thinker`, an evaluator).
const IMPURE: [(&str, &str); 14] = [
    ("std::fs", "reads or writes files"),
    ("File::", "opens files"),
    ("std::net", "talks to the network"),
    ("std::process", "runs or ends processes"),
    ("std::env", "reads the environment"),
    ("println!", "prints"),
    ("eprintln!", "prints"),
    ("async ", "is async"),
    (".await", "is async"),
    ("Instant::now", "reads the clock (the caller hands one in)"),
    (".elapsed()", "reads the clock (the caller hands one in)"),
    ("SystemTime", "reads the clock (the caller hands one in)"),
    ("thread_local!", "keeps thread-local state"),
    ("lazy_static!", "keeps global state"),
];

/// What makes a static mutable behind its back: a static of one of these types keeps state
/// between calls that no caller holds.
const INTERIOR_MUTABILITY: [&str; 9] =
    ["OnceLock", "OnceCell", "LazyLock", "LazyCell", "Mutex", "RwLock", "Atomic", "Cell", "RefCell"];

/// Why the code of `file` (a source file of the crate in `crate_dir`) is not pure; empty when it is.
fn impurities(file: &Path, crate_dir: &Path, text: &str) -> Vec<String> {
    let code = without_tests(text);
    let mut found = Vec::new();
    for (words, what) in IMPURE {
        if code.contains(words) {
            found.push(format!("{} {what} (`{words}`)", file.display()));
        }
    }
    // The operating system: only for memory advice (huge_pages.rs says why it is pure).
    if code.contains("libc::") && !file.ends_with("huge_pages.rs") {
        found.push(format!("{} calls the operating system (`libc::`)", file.display()));
    }
    // Statics: `static NAME: Type = ..;` (at any depth, a function's too).
    for (at, _) in code.match_indices("static ") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'') {
            continue; // `'static`, or a word ending in "static"
        }
        let rest = &code[at + "static ".len()..];
        let declaration = &rest[..rest.find(['=', ';']).unwrap_or(rest.len())];
        if declaration.trim_start().starts_with("mut ") {
            found.push(format!("{} has a `static mut`", file.display()));
        } else if let Some(kind) = INTERIOR_MUTABILITY.iter().find(|k| declaration.contains(*k)) {
            found.push(format!("{} keeps state in a static ({kind}): {}", file.display(), declaration.trim()));
        }
    }
    // Embedded files: the path, relative to the file, must stay inside the crate's folder.
    for open in ["include_bytes!(\"", "include_str!(\""] {
        for (at, _) in code.match_indices(open) {
            let rest = &code[at + open.len()..];
            let relative = &rest[..rest.find('"').unwrap_or(rest.len())];
            let mut resolved: Vec<&std::ffi::OsStr> = file.parent().unwrap().iter().collect();
            for part in Path::new(relative).iter() {
                match part.to_str() {
                    Some("..") => {
                        resolved.pop();
                    }
                    Some(".") => {}
                    _ => resolved.push(part),
                }
            }
            let resolved: PathBuf = resolved.into_iter().collect();
            if !resolved.starts_with(crate_dir) {
                found.push(format!("{} embeds {relative}, outside its crate", file.display()));
            }
        }
    }
    found
}

/// The core's code outside its tests (every module its `lib.rs` declares but those behind
/// `#[cfg(test)]`, each file without its `#[cfg(test)]` items: see [`without_tests`]) does no
/// I/O, is not async, reads no clock, keeps no state in statics or threads, and embeds only
/// files of its own folder.
#[test]
fn the_core_is_pure_outside_its_tests() {
    let crate_dir = root().join("crates/core");
    let mut found = Vec::new();
    let files = modules(&crate_dir.join("src/lib.rs"));
    assert!(files.len() > 40, "{} files of the core", files.len());
    for module in files {
        found.extend(impurities(&module.file, &crate_dir, &read(&module.file)));
    }
    assert!(found.is_empty(), "the core is not pure:\n{}", found.join("\n"));
}

/// The core's face is chosen (ARCHITECTURE.md): its only public modules are the games'
/// namespaces and the two the lab reads whole (ProbCut's margins, the strength estimate);
/// every other module is private and what callers use is re-exported.
#[test]
fn the_cores_modules_are_private_but_its_namespaces() {
    let namespaces = ["doubutsu", "reversi", "table", "probcut", "strength"];
    let mut public = Vec::new();
    for module in modules(&root().join("crates/core/src/lib.rs")) {
        for line in module.code.lines().map(str::trim) {
            if let Some(name) = line.strip_prefix("pub mod ").and_then(|r| r.strip_suffix(';')) {
                public.push(name.to_string());
            }
        }
    }
    public.sort();
    let mut expected: Vec<String> = namespaces.iter().map(|n| n.to_string()).collect();
    expected.sort();
    assert_eq!(public, expected, "the core's public modules");
}

/// The purity check sees what it looks for, in the places it looks, and leaves test code alone.
#[test]
fn the_purity_check_finds_what_it_looks_for() {
    let crate_dir = root().join("crates/core");
    let file = crate_dir.join("src/reversi/engine/planted.rs");
    let plants = [
        "fn f() { let _ = std::fs::read(\"x\"); }",
        "fn f() -> bool { std::env::var(\"X\").is_ok() }",
        "async fn f() {}",
        "fn f() -> std::time::Instant { std::time::Instant::now() }",
        "fn f(t: std::time::Instant) -> std::time::Duration { t.elapsed() }",
        "fn f() -> std::time::SystemTime { std::time::SystemTime::UNIX_EPOCH }",
        "static SHARED: std::sync::OnceLock<u8> = std::sync::OnceLock::new();",
        "fn f() -> &'static u8 { static ONCE: OnceLock<u8> = OnceLock::new(); ONCE.get_or_init(|| 1) }",
        "static COUNT: AtomicU64 = AtomicU64::new(0);",
        "static LOCK: Mutex<Vec<u8>> = Mutex::new(Vec::new());",
        "static LAZY: std::sync::LazyLock<u8> = std::sync::LazyLock::new(|| 1);",
        "static mut N: u8 = 0;",
        "thread_local! { static T: u8 = 0; }",
        "static W: &[u8] = include_bytes!(\"../../../../../assets/w.bin\");",
        "const S: &str = include_str!(\"../../../../README.md\");",
        "fn f() { unsafe { libc::getpid() }; }",
    ];
    for plant in plants {
        assert!(!impurities(&file, &crate_dir, plant).is_empty(), "not caught: {plant}");
    }
    let pure = [
        "static W: &[u8] = include_bytes!(\"../../../assets/reversi/w.bin\");",
        "static NAMES: [&str; 2] = [\"a\", \"b\"];",
        "fn f<'a>(x: &'a u8) -> &'static str { \"{\" }",
        "fn f(v: &[std::sync::atomic::AtomicU64]) {}",
        "/// Hand `Instant::now` in.\nfn f() {}",
        "#[cfg(test)]\nmod tests {\n    fn f() { let _ = std::time::Instant::now(); let _ = '}'; }\n}\nfn g() {}",
        "#[cfg(test)]\nmod tests;\nfn g() {}",
        "struct S {\n    #[cfg(test)]\n    at: std::time::Instant,\n}\nfn g() {}",
        "fn g() {\n    #[cfg(test)]\n    let _ = std::time::Instant::now();\n}",
        "#[cfg(test)]\nfn f<A, B>(a: A, b: B) -> std::time::Instant { std::time::Instant::now() }\nfn g() {}",
        "#[cfg(test)]\n#[allow(dead_code)]\npub(crate) fn shared() -> &'static u8 {\n    static S: OnceLock<u8> = OnceLock::new();\n    S.get_or_init(|| 1)\n}",
    ];
    for code in pure {
        assert_eq!(impurities(&file, &crate_dir, code), Vec::<String>::new(), "{code}");
    }
    // What follows a test item is checked again.
    assert!(!impurities(&file, &crate_dir, "#[cfg(test)]\nmod tests {}\nasync fn f() {}").is_empty());
    assert!(!impurities(
        &file,
        &crate_dir,
        "struct S {\n    #[cfg(test)]\n    a: u8,\n    b: std::time::SystemTime,\n}"
    )
    .is_empty());
}
