//! How the `settai` command meets the shell: the commands its messages name, and pipes.

/// A command whose output is piped into `head` ends quietly when the reader goes away, as other
/// Unix tools do, instead of panicking in `println!` (Rust ignores SIGPIPE by default). `serve`
/// keeps Rust's default: a closed socket must not kill the bot.
pub fn quiet_on_closed_pipe() {
    // SAFETY: sets the disposition of one signal at startup, before any thread exists.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// How this shell runs settai: `settai` when it is on the PATH, else the path it was started by
/// (`target/release/settai`), or `cargo run --release --` under cargo.
pub fn invocation() -> String {
    let exe = std::env::current_exe().ok();
    // The profile's folder, wherever the target folder is (`CARGO_TARGET_DIR` may move it).
    let profile = exe.as_ref().and_then(|e| e.parent()?.file_name()?.to_str().map(str::to_string));
    if std::env::var_os("CARGO").is_some() && std::env::var_os("CARGO_MANIFEST_DIR").is_some() {
        match profile.as_deref() {
            Some("release") => return "cargo run --release --".into(),
            Some("debug") => return "cargo run --".into(),
            _ => {}
        }
    }
    match std::env::args().next() {
        Some(arg0) if arg0.contains('/') => arg0,
        _ => "settai".into(),
    }
}

/// `text` with the commands it names (`settai table build`) spelled as this shell runs them.
pub fn for_this_shell(text: &str) -> String {
    let me = invocation();
    if me == "settai" {
        return text.to_string();
    }
    text.replace("`settai ", &format!("`{me} "))
}
