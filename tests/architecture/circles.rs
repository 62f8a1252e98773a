//! No source file of any crate imports another that imports it back: the paths each module
//! names, and the circles of the graph they make.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::{modules, read, root, Module};

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
        ("the command", "src/bin/settai/main.rs", 1),
        ("the lab's command", "crates/lab-cli/src/main.rs", 8),
    ];
    // Test code, not yet checked: the Discord stand-in is one `impl StandIn` in its root whose
    // parts import it back (one circle of its 17 files), as it was in tests/support before it was
    // a crate; moved as it was, so that its history follows it.
    let unchecked = ["crates/discord-stand-in/src/lib.rs"];
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
                crates.iter().any(|(_, r, _)| *r == relative) || unchecked.contains(&relative.as_str()),
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
