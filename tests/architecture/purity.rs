//! The core's code outside its tests is pure, and its face is chosen: what it may not do, the
//! check that finds it, and the check's own test.

use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

use crate::{modules, read, root};

/// What the core's code outside its tests may not name, each a run of path segments that may
/// stand anywhere in a path (`std::io::stdout`, a `use std::{fs, io}`'s each path) with what it
/// gives away: no I/O, no clock it reads itself (the caller hands one in), no entropy (the caller
/// hands in its `Rng`). Threads stay allowed: the table's build uses rayon.
const IMPURE_PATHS: [(&[&str], &str); 16] = [
    (&["std", "fs"], "reads or writes files"),
    (&["std", "io"], "does I/O"),
    (&["std", "net"], "talks to the network"),
    (&["std", "process"], "runs or ends processes"),
    (&["std", "env"], "reads the environment"),
    (&["File"], "opens files"),
    (&["Instant", "now"], "reads the clock (the caller hands one in)"),
    (&["SystemTime"], "reads the clock (the caller hands one in)"),
    (&["thread_rng"], "draws entropy (the caller hands in its Rng)"),
    (&["ThreadRng"], "draws entropy (the caller hands in its Rng)"),
    (&["rand", "random"], "draws entropy (the caller hands in its Rng)"),
    (&["OsRng"], "draws entropy (the caller hands in its Rng)"),
    (&["from_entropy"], "draws entropy (the caller hands in its Rng)"),
    (&["from_os_rng"], "draws entropy (the caller hands in its Rng)"),
    (&["getrandom"], "draws entropy (the caller hands in its Rng)"),
    (&["libc"], "calls the operating system"),
];

/// The macros the core's code may not call: printing, and state kept in a thread or a global.
const IMPURE_MACROS: [(&str, &str); 7] = [
    ("println", "prints"),
    ("eprintln", "prints"),
    ("print", "prints"),
    ("eprint", "prints"),
    ("dbg", "prints"),
    ("thread_local", "keeps thread-local state"),
    ("lazy_static", "keeps global state"),
];

/// What makes a static mutable behind its back: a static of one of these types keeps state
/// between calls that no caller holds (a type's name containing one: `AtomicU64`, `RefCell`).
const INTERIOR_MUTABILITY: [&str; 9] =
    ["OnceLock", "OnceCell", "LazyLock", "LazyCell", "Mutex", "RwLock", "Atomic", "Cell", "RefCell"];

/// Whether `attrs` hold `#[cfg(test)]`: the item is test code, which the check leaves alone.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && a.meta.require_list().is_ok_and(|l| l.tokens.to_string().trim() == "test"))
}

/// The names a path is made of (`std::io::stdout` is `["std", "io", "stdout"]`).
fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The identifiers of a type, to find the interior mutability of a static's.
#[derive(Default)]
struct TypeNames(Vec<String>);

impl<'ast> Visit<'ast> for TypeNames {
    fn visit_ident(&mut self, ident: &'ast syn::Ident) {
        self.0.push(ident.to_string());
    }
}

/// The walk over one file's syntax tree: what it finds impure, skipping `#[cfg(test)]` items.
struct Impurities<'a> {
    file: &'a Path,
    crate_dir: &'a Path,
    found: Vec<String>,
}

impl Impurities<'_> {
    fn report(&mut self, what: String) {
        self.found.push(format!("{} {what}", self.file.display()));
    }

    /// A path named in code or imported (`use` trees are flattened into their paths first).
    fn check_path(&mut self, names: &[String]) {
        for (words, what) in IMPURE_PATHS {
            // The operating system: only for memory advice (huge_pages.rs says why it is pure).
            if words == ["libc"] && self.file.ends_with("huge_pages.rs") {
                continue;
            }
            if names.windows(words.len()).any(|w| w.iter().zip(words).all(|(a, b)| a == b)) {
                self.report(format!("{what} (`{}`)", names.join("::")));
            }
        }
    }

    /// The paths a `use` tree imports, each checked whole (`use std::{fs, io::Write}`).
    fn check_use(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.check_use(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.check_named(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.check_named(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.check_path(&prefix.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.check_use(prefix, t)),
        }
    }

    fn check_named(&mut self, prefix: &[String], ident: &syn::Ident) {
        let mut path = prefix.to_vec();
        if ident != "self" {
            path.push(ident.to_string());
        }
        self.check_path(&path);
    }

    /// An embedded file: the path, relative to the file, must stay inside the crate's folder.
    fn check_embedded(&mut self, relative: &str) {
        let mut resolved: Vec<&std::ffi::OsStr> = self.file.parent().unwrap().iter().collect();
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
        if !resolved.starts_with(self.crate_dir) {
            self.report(format!("embeds {relative}, outside its crate"));
        }
    }
}

/// Visits a node only if it is not `#[cfg(test)]`.
macro_rules! unless_test {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method(&mut self, node: &'ast $ty) {
            if !is_test(&node.attrs) {
                visit::$method(self, node);
            }
        }
    )*};
}

impl<'ast> Visit<'ast> for Impurities<'_> {
    unless_test! {
        visit_item_fn(syn::ItemFn);
        visit_item_mod(syn::ItemMod);
        visit_item_const(syn::ItemConst);
        visit_item_impl(syn::ItemImpl);
        visit_item_struct(syn::ItemStruct);
        visit_item_enum(syn::ItemEnum);
        visit_item_trait(syn::ItemTrait);
        visit_item_type(syn::ItemType);
        visit_item_macro(syn::ItemMacro);
        visit_impl_item_fn(syn::ImplItemFn);
        visit_impl_item_const(syn::ImplItemConst);
        visit_trait_item_fn(syn::TraitItemFn);
        visit_field(syn::Field);
        visit_variant(syn::Variant);
        visit_local(syn::Local);
        visit_arm(syn::Arm);
        visit_stmt_macro(syn::StmtMacro);
        visit_expr_call(syn::ExprCall);
        visit_expr_macro(syn::ExprMacro);
        visit_expr_block(syn::ExprBlock);
        visit_expr_path(syn::ExprPath);
    }

    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        if !is_test(&node.attrs) {
            self.check_use(&mut Vec::new(), &node.tree);
        }
    }

    fn visit_item_static(&mut self, node: &'ast syn::ItemStatic) {
        if is_test(&node.attrs) {
            return;
        }
        if matches!(node.mutability, syn::StaticMutability::Mut(_)) {
            self.report(format!("has a `static mut` ({})", node.ident));
        } else {
            let mut names = TypeNames::default();
            names.visit_type(&node.ty);
            if let Some(kind) = INTERIOR_MUTABILITY.iter().find(|k| names.0.iter().any(|n| n.contains(*k))) {
                self.report(format!("keeps state in a static ({kind}): {}", node.ident));
            }
        }
        visit::visit_item_static(self, node);
    }

    fn visit_path(&mut self, node: &'ast syn::Path) {
        self.check_path(&segments(node));
        visit::visit_path(self, node);
    }

    fn visit_signature(&mut self, node: &'ast syn::Signature) {
        if node.asyncness.is_some() {
            self.report(format!("is async (`async fn {}`)", node.ident));
        }
        visit::visit_signature(self, node);
    }

    fn visit_expr_async(&mut self, node: &'ast syn::ExprAsync) {
        self.report("is async (an `async` block)".into());
        visit::visit_expr_async(self, node);
    }

    fn visit_expr_await(&mut self, node: &'ast syn::ExprAwait) {
        self.report("is async (`.await`)".into());
        visit::visit_expr_await(self, node);
    }

    fn visit_expr_closure(&mut self, node: &'ast syn::ExprClosure) {
        if node.asyncness.is_some() {
            self.report("is async (an `async` closure)".into());
        }
        visit::visit_expr_closure(self, node);
    }

    fn visit_expr_method_call(&mut self, node: &'ast syn::ExprMethodCall) {
        if is_test(&node.attrs) {
            return;
        }
        if node.method == "elapsed" {
            self.report("reads the clock (the caller hands one in) (`.elapsed()`)".into());
        }
        visit::visit_expr_method_call(self, node);
    }

    /// A macro's name, its embedded file, and what its arguments name when they are expressions
    /// (`assert!(..)`, `format!(..)`): syn leaves a macro's body unparsed.
    fn visit_macro(&mut self, node: &'ast syn::Macro) {
        let name = node.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if let Some((_, what)) = IMPURE_MACROS.iter().find(|(m, _)| *m == name) {
            self.report(format!("{what} (`{name}!`)"));
        }
        if name == "include_bytes" || name == "include_str" {
            if let Ok(lit) = node.parse_body::<syn::LitStr>() {
                self.check_embedded(&lit.value());
            }
        }
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = node.parse_body_with(parser) {
            args.iter().for_each(|a| self.visit_expr(a));
        }
        visit::visit_macro(self, node);
    }
}

/// Why the code of `file` (a source file of the crate in `crate_dir`) is not pure; empty when it
/// is. The code is parsed (syn), so a grouped import, a path in a macro's arguments or a name
/// split over lines is seen as the compiler sees it, and `#[cfg(test)]` items are left out.
fn impurities(file: &Path, crate_dir: &Path, text: &str) -> Vec<String> {
    let parsed = match syn::parse_file(text) {
        Ok(parsed) => parsed,
        Err(e) => return vec![format!("{} does not parse: {e}", file.display())],
    };
    let mut walk = Impurities { file, crate_dir, found: Vec::new() };
    walk.visit_file(&parsed);
    walk.found
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

/// The purity check sees what it looks for, in the places it looks (grouped imports and macros'
/// arguments too), and leaves test code, threads and a handed-in `Rng` alone.
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
        // What matching strings let through: grouped and renamed imports, I/O, printing, entropy.
        "use std::{fs, io};",
        "use std::{collections::HashMap, io::Write as _};",
        "use std::io;",
        "fn f() { let _ = std::io::stdout(); }",
        "fn f() { print!(\"x\"); }",
        "fn f() { eprint!(\"x\"); }",
        "fn f() -> u8 { dbg!(1) }",
        "fn f() -> u8 { rand::random() }",
        "fn f() { let _ = rand::thread_rng(); }",
        "use rand::rngs::OsRng;",
        "fn f() -> rand::rngs::StdRng { rand::SeedableRng::from_entropy() }",
        "fn f() -> u64 { std::time::SystemTime::now().elapsed().unwrap().as_secs() }",
        "fn f(t: std::time::Instant) -> bool { assert!(t < std::time::Instant::now()); true }",
        "fn f() { let _ = std::time::Instant::\n    now(); }",
        "fn f() { use std::fs; }",
        "impl S { async fn f(&self) {} }",
        "fn f() { let _ = async {}; }",
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
        // Threads stay allowed (the table's build uses rayon), and an Rng the caller hands in.
        "use rayon::prelude::*;\nfn f(v: &mut [u8]) { v.par_iter_mut().for_each(|x| *x += 1); }",
        "fn f() { std::thread::scope(|s| { s.spawn(|| 1); }); }",
        "use rand::seq::SliceRandom;\nfn f<R: rand::Rng>(r: &mut R, v: &mut [u8]) -> u8 { v.shuffle(r); r.gen() }",
        "/// Never `println!` nor `rand::random`.\nfn f() {}",
        "#[cfg(test)]\nuse std::io;\nfn g() {}",
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
