//! The layout of the rules core and of the page's server: no file of
//! `src/rules` or `src/gui` names, in its code, a file that names it
//! back, directly or round a longer loop. A newcomer can then read the
//! files in an order where each uses only what came before.
//!
//! A file names another by a path to it or into it: `use super::x`,
//! `crate::rules::x::Y`, `super::x::f(...)`, and in a `mod.rs` a path
//! from one of its own children (`x::f(...)`). A `mod x;` declaration is
//! structure, not a dependency. Comments and the `tests` module at a
//! file's end are left out: a test may reach for anything.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path below the folder checked, as its segments.
type Module = Vec<String>;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The module of a file under `folder`: `movegen/mod.rs` is `[movegen]`,
/// the folder's own `mod.rs` is `[]`.
fn module_of(folder: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(folder).expect("a file under the folder");
    let mut parts: Module = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of a source file: comments, and the items compiled for
/// tests only, left out.
fn code_of(source: &str) -> String {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut kept = String::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        rest = &rest[at..];
        // The item ends at its first `;`, or at the brace closing its
        // first `{`.
        let end = match (rest.find('{'), rest.find(';')) {
            (Some(open), semicolon) if semicolon.is_none_or(|s| open < s) => {
                let mut depth = 0;
                rest[open..]
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += i32::from(c == '{') - i32::from(c == '}');
                        depth == 0
                    })
                    .map_or(rest.len(), |(i, _)| open + i + 1)
            }
            (_, Some(semicolon)) => semicolon + 1,
            _ => rest.len(),
        };
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// The paths a path or `use` tree starting at `text` names, with its
/// braces expanded (`a::{b, c::{d}}` is `a::b` and `a::c::d`), each as
/// its segments.
fn paths_at(text: &str) -> Vec<Vec<String>> {
    let mut segments = Vec::new();
    let mut rest = text;
    loop {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '*')
            .collect();
        if word.is_empty() {
            // A brace: each item of the group continues the path.
            let Some(group) = rest.strip_prefix('{') else {
                return vec![segments];
            };
            let mut items = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        items.push(&group[start..i]);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(&group[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return items
                .iter()
                .flat_map(|item| paths_at(item.trim()))
                .map(|tail| [segments.clone(), tail].concat())
                .collect();
        }
        rest = &rest[word.len()..];
        segments.push(word);
        match rest.strip_prefix("::") {
            Some(after) => rest = after.trim_start(),
            None => return vec![segments],
        }
    }
}

/// The files of `folder` (whose module is `crate::<root>`) and the files
/// each names.
fn graph(folder: &str, root: &str) -> BTreeMap<Module, BTreeSet<Module>> {
    let folder = Path::new(folder);
    let files = rust_files(folder);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(folder, f)).collect();
    // The file that holds a path: the longest prefix that is a module.
    let owner = |path: &[String]| -> Module {
        (0..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|m| modules.contains(m))
            .unwrap_or_default()
    };
    let mut edges = BTreeMap::new();
    for file in &files {
        let module = module_of(folder, file);
        let is_mod = file.ends_with("mod.rs");
        let code = code_of(&fs::read_to_string(file).expect("a readable source file"));
        let children: BTreeSet<&String> = modules
            .iter()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(&module))
            .map(|m| &m[module.len()])
            .collect();
        let mut named = BTreeSet::new();
        let bytes = code.as_bytes();
        for (at, _) in code.char_indices() {
            let starts_word = at == 0 || {
                let b = bytes[at - 1];
                !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
            };
            // `pub(in crate::x)` names where an item is seen, not
            // what it uses.
            if !starts_word || code[..at].ends_with("(in ") {
                continue;
            }
            for path in paths_at(&code[at..]) {
                let (base, tail): (Module, &[String]) = match path.first().map(String::as_str) {
                    Some("crate") if path.get(1).is_some_and(|r| r == root) => {
                        (Vec::new(), &path[2..])
                    }
                    Some("self") => (module.clone(), &path[1..]),
                    Some("super") => {
                        let ups = path.iter().take_while(|s| *s == "super").count();
                        // Past the folder's own module lies another part
                        // of the crate.
                        let Some(keep) = module.len().checked_sub(ups) else {
                            continue;
                        };
                        (module[..keep].to_vec(), &path[ups..])
                    }
                    Some(first)
                        if is_mod && path.len() > 1 && children.contains(&first.to_string()) =>
                    {
                        (module.clone(), &path[..])
                    }
                    _ => continue,
                };
                // A bare `super` or `crate::x`, as in `pub(super)`, names
                // no item.
                if tail.is_empty() {
                    continue;
                }
                let target = owner(&[base, tail.to_vec()].concat());
                if target != module {
                    named.insert(target);
                }
            }
        }
        edges.insert(module, named);
    }
    edges
}

/// The modules reachable from `start` by naming.
fn reachable(graph: &BTreeMap<Module, BTreeSet<Module>>, start: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start.clone()];
    while let Some(m) = todo.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

/// Fails when a file of `folder` reaches itself.
fn assert_no_loop(folder: &str, root: &str) {
    let graph = graph(folder, root);
    assert!(graph.len() > 20, "{} files in {folder}", graph.len());
    for (module, named) in &graph {
        assert!(
            !reachable(&graph, module).contains(module),
            "{folder}/{} names itself back through {named:?}",
            module.join("/")
        );
    }
}

fn module(path: &str) -> Module {
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn no_file_of_the_rules_names_one_that_names_it() {
    assert_no_loop("src/rules", "rules");
    // The reader sees the names it must.
    let graph = graph("src/rules", "rules");
    assert!(graph[&module("movegen/random")].contains(&module("movegen/legality")));
    assert!(graph[&module("movegen")].contains(&module("position")));
    assert!(graph[&module("")].contains(&module("position/setup")));
}

#[test]
fn no_file_of_the_page_server_names_one_that_names_it() {
    assert_no_loop("src/gui", "gui");
}

#[test]
fn the_reader_finds_every_kind_of_name() {
    let code = "use super::b::{X, y::{Z, W}};\nfn f() { crate::gui::c::g(); }";
    let paths: Vec<String> = paths_at(&code[4..]).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["super::b::X", "super::b::y::Z", "super::b::y::W"]);
    assert_eq!(
        paths_at("crate::gui::c::g()")[0].join("::"),
        "crate::gui::c::g"
    );
    // Comments and what tests alone compile are not code.
    let code = code_of(
        "let a = 1; // super::x\n#[cfg(test)]\nuse super::z;\n#[cfg(test)]\nmod tests {\n    \
         fn g() { super::y(); }\n}\nfn h() {}\n",
    );
    assert_eq!(
        code.split_whitespace().collect::<Vec<_>>(),
        ["let", "a", "=", "1;", "fn", "h()", "{}"]
    );
}
