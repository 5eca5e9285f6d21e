//! The house rules that hold the layout together: no function over 150 lines (in `src`, `tests`
//! and `benches`), only `cli/` and `main.rs` import `cli`, the top level holds the fixed folders
//! and nothing else, and the README stays a user's page of at most 300 lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

const MAX_FUNCTION_LINES: usize = 150;
const MAX_README_LINES: usize = 300;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && name != "node_modules" && name != "target" {
            rust_files(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// The source with comments, string and char literals blanked (newlines kept), so braces count.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_char(chars.get(i.wrapping_sub(1))) {
            i = skip_raw_string(&chars, i, &mut out);
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            i += if next == Some('\\') {
                chars.get(i + 3..).unwrap_or(&[]).iter().position(|&c| c == '\'').map_or(3, |p| p + 4)
            } else {
                3
            };
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// `'x'` or `'\n'` rather than a lifetime `'a`.
fn is_char_literal(chars: &[char], i: usize) -> bool {
    match (chars.get(i + 1), chars.get(i + 2)) {
        (Some('\\'), _) => true,
        (Some(_), Some('\'')) => true,
        _ => false,
    }
}

/// Skips `r"…"` / `r#"…"#` starting at `i`; returns the index after it.
fn skip_raw_string(chars: &[char], mut i: usize, out: &mut String) -> usize {
    i += 1;
    let mut hashes = 0;
    while chars.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    if chars.get(i) != Some(&'"') {
        out.push('r');
        return i - hashes;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
            return i + 1 + hashes;
        }
        if chars[i] == '\n' {
            out.push('\n');
        }
        i += 1;
    }
    i
}

/// Every function of `code` longer than the limit, as `(name, first line, lines)`.
fn long_functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i32;
        let mut opened = false;
        'scan: for (offset, body_line) in lines[start..].iter().enumerate() {
            for c in body_line.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    ';' if !opened && depth == 0 => break 'scan,
                    _ => {}
                }
                if opened && depth == 0 {
                    if offset + 1 > MAX_FUNCTION_LINES {
                        found.push((name.clone(), start + 1, offset + 1));
                    }
                    break 'scan;
                }
            }
        }
    }
    found
}

/// The name when `line` starts a function item (`pub(crate) const fn name`, `fn name<…>`).
fn fn_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "fn")?;
    let prefix_ok = words[..at]
        .iter()
        .all(|w| w.starts_with("pub") || matches!(*w, "const" | "async" | "unsafe" | "extern" | "\"C\"" | "default"));
    let name: String = words.get(at + 1)?.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (prefix_ok && !name.is_empty()).then_some(name)
}

#[test]
fn no_function_is_longer_than_150_lines() {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    files.sort();
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (name, line, count) in long_functions(&code_only(&text)) {
            offenders.push(format!("{}:{line} {name}: {count} lines", file.strip_prefix(root()).unwrap().display()));
        }
    }
    assert!(offenders.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", offenders.join("\n"));
}

#[test]
fn the_long_function_check_sees_a_long_function_and_ignores_braces_in_strings() {
    let long = format!("fn long() {{\n{}}}\n", "    let x = \"}\"; // }\n".repeat(MAX_FUNCTION_LINES));
    assert_eq!(long_functions(&code_only(&long)), vec![("long".to_string(), 1, MAX_FUNCTION_LINES + 2)]);
    let short = format!("pub(crate) fn short<'a>(c: char) -> bool {{\n{}}}\n", "    c == '{';\n".repeat(10));
    assert!(long_functions(&code_only(&short)).is_empty());
}

#[test]
fn only_the_command_line_imports_cli() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut offenders = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        if rel.starts_with("cli") || rel == Path::new("main.rs") {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(file).unwrap());
        for (i, line) in code.lines().enumerate() {
            if line.contains("crate::cli") || line.contains("super::cli") || line.trim_start().starts_with("use cli") {
                offenders.push(format!("src/{}:{}: {}", rel.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "modules outside cli/ and main.rs that import cli:\n{}", offenders.join("\n"));
}

#[test]
fn the_top_level_holds_the_fixed_entries_only() {
    const ALLOWED: [&str; 8] = ["Cargo.toml", "Cargo.lock", "src", "assets", "scores", "tests", "benches", "README.md"];
    let mut extra = Vec::new();
    for entry in std::fs::read_dir(root()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if !(name.starts_with('.') || name.starts_with("target") || ALLOWED.contains(&name.as_str())) {
            extra.push(name);
        }
    }
    extra.sort();
    assert!(extra.is_empty(), "unexpected top-level entries: {extra:?}");
}

#[test]
fn the_readme_is_a_users_page_of_at_most_300_lines() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= MAX_README_LINES, "README.md has {lines} lines (at most {MAX_README_LINES})");
    assert!(readme.contains("cargo test --locked"), "README lost the test command CI runs");
}
