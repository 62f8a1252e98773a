//! The layout ARCHITECTURE.md promises, checked from the sources: the core crate names no I/O
//! crate and its code outside its tests is pure (no I/O, no async, no clock of its own, no state
//! in statics or threads, nothing embedded from outside its folder), the bot's library never
//! names the lab, and no source file of any crate of the workspace imports another that imports
//! it back (directly or around a circle, a re-export from outside a module's own children
//! counting as an import).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_core_crate_depends_on_no_io_crate() {
    let manifest = read(&root().join("crates/core/Cargo.toml"));
    let deps: Vec<&str> = manifest
        .lines()
        .skip_while(|l| !l.starts_with("[dependencies]"))
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| !name.is_empty() && !name.starts_with('[') && !name.starts_with('#'))
        .collect();
    assert!(deps.contains(&"rand"), "the dependencies are read: {deps:?}");
    for io in ["tokio", "sqlx", "serenity", "axum", "reqwest", "hyper", "memmap2", "indicatif", "dotenvy", "tracing"] {
        assert!(!deps.iter().any(|d| d.starts_with(io)), "the core depends on {io}");
    }
}

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

/// `text` without comments and without the items compiled for tests only: each
/// `#[cfg(test)]` takes the item after it (and that item's other attributes) away, whether a
/// `mod tests { .. }` block, a `mod tests;` line, a function or a `use`, up to the `;` or the
/// brace that closes it (braces in strings and character literals are not counted).
fn without_tests(text: &str) -> String {
    let code: String = text
        .lines()
        .map(|line| match line.find("//") {
            // A `//` inside a string (a URL) is rare in the core; cutting there only hides code.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    while i < chars.len() {
        if chars[i..].starts_with(&marker) {
            i += marker.len();
            // Skip the item: to its `;` (or, for a field or an argument, its `,`) outside any
            // brackets, to the brace that closes its first `{`, or up to the `}` that closes
            // what holds it.
            let (mut depth, mut nested) = (0usize, 0usize);
            while i < chars.len() {
                match chars[i] {
                    '(' | '[' => nested += 1,
                    ')' | ']' => nested = nested.saturating_sub(1),
                    '<' if depth == 0 => nested += 1,
                    '>' if depth == 0 && i > 0 && !['-', '='].contains(&chars[i - 1]) => {
                        nested = nested.saturating_sub(1)
                    }
                    ',' if depth == 0 && nested == 0 => {
                        i += 1;
                        break;
                    }
                    '}' if depth == 0 => break,
                    '"' => {
                        i += 1;
                        while i < chars.len() && chars[i] != '"' {
                            i += if chars[i] == '\\' { 2 } else { 1 };
                        }
                    }
                    '\'' if chars.get(i + 2) == Some(&'\'') => i += 2,
                    '\'' if chars.get(i + 1) == Some(&'\\') => {
                        while i + 1 < chars.len() && chars[i + 1] != '\'' {
                            i += 1;
                        }
                        i += 1;
                    }
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    ';' if depth == 0 => {
                        i += 1;
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

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

#[test]
fn the_bots_library_never_names_the_lab() {
    let lib = rust_files(&root().join("src"));
    let bin = root().join("src/bin");
    let mut checked = 0;
    for file in lib.iter().filter(|f| !f.starts_with(&bin)) {
        assert!(!read(file).contains("settai_lab"), "{} names the lab, which the bot does not link", file.display());
        checked += 1;
    }
    assert!(checked > 30, "{checked} files of the library");
    let command = read(&root().join("src/bin/settai/main.rs"));
    assert!(command.contains("settai_lab") || command.contains("mod bench"), "the command keeps the lab's commands");
}

/// One module of a crate: its path from the crate root, its file, and its code without
/// comments and without its `#[cfg(test)]` items ([`without_tests`]).
struct Module {
    path: Vec<String>,
    file: PathBuf,
    code: String,
}

/// The modules a `mod` file declares, except those compiled for tests only.
fn declared_children(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut test_only = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("#[cfg(test)]") {
            test_only = true;
            continue;
        }
        let decl = line.trim_start_matches("pub ").trim_start_matches("pub(crate) ").trim_start_matches("pub(super) ");
        if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
            if !test_only {
                out.push(name.trim().to_string());
            }
        }
        if !line.starts_with("#[") {
            test_only = false;
        }
    }
    out
}

/// The modules of the crate whose root file is `root_file`, following `mod` declarations.
fn modules(root_file: &Path) -> Vec<Module> {
    let mut out = Vec::new();
    let mut todo = vec![(Vec::<String>::new(), root_file.to_path_buf())];
    while let Some((path, file)) = todo.pop() {
        let text = read(&file);
        // Children of `x.rs` and of `x/mod.rs` alike live in the folder `x/`; of a root, beside it.
        let name = file.file_stem().unwrap().to_str().unwrap();
        let dir = if path.is_empty() || name == "mod" {
            file.parent().unwrap().to_path_buf()
        } else {
            file.parent().unwrap().join(name)
        };
        for child in declared_children(&text) {
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(&child).join("mod.rs");
            let child_file = if flat.exists() { flat } else { nested };
            assert!(child_file.exists(), "{}: mod {child} has no file", file.display());
            let mut child_path = path.clone();
            child_path.push(child);
            todo.push((child_path, child_file));
        }
        out.push(Module { path, file, code: without_tests(&text) });
    }
    out
}

/// A `use` statement: its tree, and whether it re-exports (`pub use`, `pub(crate) use`).
struct UseStatement {
    tree: String,
    reexport: bool,
    /// Where the statement lies in the code, from `use` (or `pub`) to its `;`.
    span: std::ops::Range<usize>,
}

/// The `use` statements of `code`: those that begin a line.
fn use_statements(code: &str) -> Vec<UseStatement> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let start = offset + (line.len() - trimmed.len());
        offset += line.len();
        let (reexport, rest) = if let Some(r) = trimmed.strip_prefix("use ") {
            (false, r)
        } else if let Some(r) = trimmed
            .strip_prefix("pub use ")
            .or_else(|| trimmed.strip_prefix("pub(").and_then(|r| r.split_once(") use ")).map(|(_, r)| r))
        {
            (true, r)
        } else {
            continue;
        };
        let begin = start + (trimmed.len() - rest.len());
        let end = code[begin..].find(';').map_or(code.len(), |e| begin + e);
        out.push(UseStatement { tree: code[begin..end].to_string(), reexport, span: start..end });
    }
    out
}

/// The paths a `use` tree names, braces expanded: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`,
/// `a::c::e`.
fn expand_use(tree: &str) -> Vec<String> {
    // Whitespace goes, but a renaming keeps its ` as ` (every path below splits on it).
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ").replace(" as ", "\u{0}");
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect::<String>().replace('\u{0}', " as ");
    let Some(open) = tree.find('{') else { return vec![tree] };
    let prefix = &tree[..open];
    let Some(close) = tree.rfind('}').filter(|&c| c > open) else { return Vec::new() };
    let inner = &tree[open + 1..close];
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).flat_map(|p| expand_use(&format!("{prefix}{p}"))).collect()
}

/// Every path the module names: `use` trees expanded, and paths written out in the code that
/// start at `crate`, `super`, `self` or a child module; each with whether it is a re-export
/// (`pub use`). A module that gathers its children's items is not their user, but one that
/// re-exports another module's item names it like any other import (`circles` tells them apart).
fn named_paths(module: &Module, children: &BTreeSet<String>) -> Vec<(Vec<String>, bool)> {
    let mut paths = Vec::new();
    let statements = use_statements(&module.code);
    // The code without its `use` statements, for the paths written out below.
    let mut code = module.code.clone();
    for s in statements.iter().rev() {
        code.replace_range(s.span.clone(), "");
    }
    for statement in statements {
        for p in expand_use(&statement.tree) {
            let p = p.split(" as ").next().unwrap().to_string();
            paths.push((p.split("::").map(str::to_string).collect(), statement.reexport));
        }
    }
    // Paths in expressions and types.
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        if starts_word && (bytes[i].is_ascii_lowercase() || bytes[i] == '_') {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_alphanumeric() || bytes[j] == '_' || bytes[j] == ':') {
                j += 1;
            }
            let word: String = bytes[i..j].iter().collect();
            let segments: Vec<String> = word.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            if segments.len() > 1
                && !word.ends_with("::")
                && (["crate", "super", "self"].contains(&segments[0].as_str()) || children.contains(&segments[0]))
            {
                paths.push((segments, false));
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// The file a path leads to, seen from `from`: the deepest module the path walks through, or
/// the module a gathering module (`pub use child::Item`) takes the named item from.
fn target(
    from: &[String],
    path: &[String],
    known: &BTreeMap<Vec<String>, usize>,
    reexports: &BTreeMap<(Vec<String>, String), Vec<String>>,
) -> Option<Vec<String>> {
    let mut at: Vec<String> = from.to_vec();
    let mut segments = path.iter().peekable();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            at.clear();
            segments.next();
        }
        Some("self") => {
            segments.next();
        }
        Some("super") => {}
        _ => {}
    }
    while segments.peek().is_some_and(|s| *s == "super") {
        segments.next();
        at.pop()?;
    }
    for segment in segments {
        let mut child = at.clone();
        child.push(segment.clone());
        if known.contains_key(&child) {
            at = child;
            continue;
        }
        // An item of `at`: perhaps one that `at` only gathers from a child of its own.
        let mut seen = 0;
        while let Some(source) = reexports.get(&(at.clone(), segment.clone())) {
            at = source.clone();
            seen += 1;
            if seen > 8 {
                break;
            }
        }
        break;
    }
    Some(at)
}

/// Where each gathering module takes its re-exported items from: (module, item) → child module.
fn reexports(modules: &[Module], known: &BTreeMap<Vec<String>, usize>) -> BTreeMap<(Vec<String>, String), Vec<String>> {
    let mut out = BTreeMap::new();
    for m in modules {
        for statement in use_statements(&m.code).into_iter().filter(|s| s.reexport) {
            let tree = &statement.tree;
            for p in expand_use(tree) {
                let (p, alias) = match p.split_once(" as ") {
                    Some((p, a)) => (p.to_string(), Some(a.to_string())),
                    None => (p, None),
                };
                let segments: Vec<String> = p.split("::").map(str::to_string).collect();
                let Some(item) = alias.or_else(|| segments.last().cloned()) else { continue };
                if let Some(source) = target(&m.path, &segments, known, &BTreeMap::new()) {
                    if source != m.path {
                        out.insert((m.path.clone(), item), source);
                    }
                }
            }
        }
    }
    out
}

/// Files that import each other around a circle, and the imports that close it.
#[derive(Debug)]
struct Circle {
    files: Vec<PathBuf>,
    edges: Vec<String>,
}

/// The circles of a crate's file graph (strongly connected components of more than one file,
/// or a file that names itself through another path never counts).
fn circles(root_file: &Path) -> (usize, Vec<Circle>) {
    let modules = modules(root_file);
    let known: BTreeMap<Vec<String>, usize> = modules.iter().enumerate().map(|(i, m)| (m.path.clone(), i)).collect();
    let reexports = reexports(&modules, &known);
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); modules.len()];
    let mut why: BTreeMap<(usize, usize), String> = BTreeMap::new();
    for (i, m) in modules.iter().enumerate() {
        let children: BTreeSet<String> = known
            .keys()
            .filter(|p| p.len() == m.path.len() + 1 && p.starts_with(&m.path))
            .map(|p| p.last().unwrap().clone())
            .collect();
        for (path, reexport) in named_paths(m, &children) {
            if let Some(t) = target(&m.path, &path, &known, &reexports) {
                // Gathering from its own children (or their children) is not using them.
                if reexport && t.len() > m.path.len() && t.starts_with(&m.path) {
                    continue;
                }
                let j = known[&t];
                if j != i {
                    edges[i].insert(j);
                    why.entry((i, j)).or_insert_with(|| path.join("::"));
                }
            }
        }
    }
    // Tarjan's strongly connected components.
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(v: usize, edges: &[BTreeSet<usize>], s: &mut State) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &edges[v] {
            match s.index[w] {
                None => {
                    visit(w, edges, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let n = modules.len();
    let mut s = State {
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(v, &edges, &mut s);
        }
    }
    let named = s
        .found
        .into_iter()
        .map(|c| {
            let mut edges_within = Vec::new();
            for &a in &c {
                for &b in &c {
                    if let Some(path) = why.get(&(a, b)) {
                        edges_within.push(format!(
                            "{} -> {} ({path})",
                            modules[a].path.join("::"),
                            modules[b].path.join("::")
                        ));
                    }
                }
            }
            Circle { files: c.into_iter().map(|i| modules[i].file.clone()).collect(), edges: edges_within }
        })
        .collect();
    (n, named)
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    let crates = [
        ("the core", "crates/core/src/lib.rs", 40),
        ("the lab", "crates/lab/src/lib.rs", 10),
        ("the bot", "src/lib.rs", 40),
        ("the command", "src/bin/settai/main.rs", 4),
    ];
    // Every crate root of every member of the workspace is among them.
    let manifest = read(&root().join("Cargo.toml"));
    let members = manifest.split("members = [").nth(1).and_then(|r| r.split(']').next()).expect("the members");
    for member in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
        let src = root().join(member).join("src");
        let mut roots = vec![src.join("lib.rs"), src.join("main.rs")];
        if let Ok(entries) = std::fs::read_dir(src.join("bin")) {
            for entry in entries {
                let path = entry.unwrap().path();
                roots.push(if path.is_dir() { path.join("main.rs") } else { path });
            }
        }
        for crate_root in roots.into_iter().filter(|r| r.exists()) {
            let relative = crate_root.strip_prefix(root()).unwrap().to_str().unwrap().to_string();
            assert!(
                crates.iter().any(|(_, r, _)| *r == relative),
                "{relative}, a crate of the workspace, is not checked"
            );
        }
    }
    let mut report = String::new();
    for (name, root_file, at_least) in crates {
        let (files, found) = circles(&root().join(root_file));
        assert!(files >= at_least, "{name}: {files} files found from {root_file}");
        for circle in found {
            let names: Vec<String> =
                circle.files.iter().map(|f| f.strip_prefix(root()).unwrap().display().to_string()).collect();
            report.push_str(&format!("{name}: {}\n    {}\n", names.join(", "), circle.edges.join("\n    ")));
        }
    }
    assert!(report.is_empty(), "import circles between files:\n{report}");
}

/// The check sees circles: two files of a made-up crate that name each other are one.
#[test]
fn the_circle_check_finds_a_circle() {
    let dir = std::env::temp_dir().join(format!("settai-circles-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod a;\npub mod b;\npub mod c;\n").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::inner::Thing;\npub struct A;\n").unwrap();
    std::fs::write(dir.join("b/mod.rs"), "pub mod inner;\npub use inner::Thing;\n").unwrap();
    std::fs::write(dir.join("b/inner.rs"), "pub struct Thing(super::super::a::A);\n").unwrap();
    std::fs::write(dir.join("c.rs"), "use super::{a::A, b::Thing};\n").unwrap();
    let (files, found) = circles(&dir.join("lib.rs"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(files, 5);
    assert_eq!(found.len(), 1, "{found:?}");
    let mut names: Vec<String> =
        found[0].files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["a.rs", "inner.rs"]);
}
