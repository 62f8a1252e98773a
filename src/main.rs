fn main() -> std::process::ExitCode {
    settai::cli::main()
}
