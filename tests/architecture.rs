//! The layout ARCHITECTURE.md promises, checked from the sources: the core crate names no I/O
//! crate and touches no file, the bot's library never names the lab, and no source file of any
//! crate imports another that imports it back (directly or around a circle).

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
fn the_core_crate_depends_on_no_io_crate_touches_no_file_and_keeps_no_thread_state() {
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
    for file in rust_files(&root().join("crates/core/src")) {
        let code = read(&file);
        for io in ["std::fs", "std::net", "File::", "std::env", "println!", "eprintln!", "std::process"] {
            assert!(!code.contains(io), "{} uses {io}: the core does no I/O", file.display());
        }
        // State between calls is the caller's (a `Thinker`), not a thread's or the process's.
        assert!(!code.contains("thread_local!"), "{} keeps thread-local state", file.display());
    }
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
/// comments and without its trailing `#[cfg(test)]` module.
struct Module {
    path: Vec<String>,
    file: PathBuf,
    code: String,
}

/// The code of `text` without comments and without the test module that ends the file.
fn production_code(text: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") && lines.get(i + 1).is_some_and(|next| next.contains(" {")) {
            break;
        }
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
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
        out.push(Module { path, file, code: production_code(&text) });
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
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
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
/// start at `crate`, `super`, `self` or a child module. Re-exports (`pub use`) are left out: a
/// module that gathers its children's items is not their user.
fn named_paths(module: &Module, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let statements = use_statements(&module.code);
    // The code without its `use` statements, for the paths written out below.
    let mut code = module.code.clone();
    for s in statements.iter().rev() {
        code.replace_range(s.span.clone(), "");
    }
    for statement in statements {
        if statement.reexport {
            continue;
        }
        for p in expand_use(&statement.tree) {
            let p = p.split(" as ").next().unwrap().to_string();
            paths.push(p.split("::").map(str::to_string).collect());
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
                paths.push(segments);
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
        for path in named_paths(m, &children) {
            if let Some(t) = target(&m.path, &path, &known, &reexports) {
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
