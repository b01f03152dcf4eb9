//! The rules core's layout: no file of `src/rules` imports, through its
//! `use` declarations, a file that imports it back, directly or around
//! a longer loop. A newcomer can then read the files in an order where
//! each uses only what came before.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("src/rules is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The module path of a file under `src`, as `crate::a::b`.
fn module_of(file: &Path) -> String {
    let relative = file.strip_prefix("src").expect("a file under src");
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    format!("crate::{}", parts.join("::"))
}

/// The paths a `use` tree names, with its braces expanded:
/// `a::{b, c::{d}}` is `a::b` and `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or_default();
        return vec![path.to_string()];
    };
    let close = tree.rfind('}').expect("a closing brace");
    let (head, inner) = (&tree[..open], &tree[open + 1..close]);
    let mut items = Vec::new();
    let (mut depth, mut item) = (0, String::new());
    for c in inner.chars() {
        match c {
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            _ => {
                depth += i32::from(c == '{') - i32::from(c == '}');
                item.push(c);
            }
        }
    }
    items.push(item);
    items
        .iter()
        .map(|i| i.trim())
        .filter(|i| !i.is_empty())
        .flat_map(|i| expand(&format!("{head}{i}")))
        .collect()
}

/// The `use` trees of a file's source, its tests left out.
fn use_trees(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let mut trees = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = rest[line_start..at].trim();
        let is_use = before.is_empty() || before.starts_with("pub");
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e);
        if is_use {
            trees.push(rest[at + 4..end].to_string());
        }
        rest = &rest[(end + 1).min(rest.len())..];
    }
    trees
}

/// The modules of `modules` that `module`'s `use` paths land in.
fn imports(module: &str, source: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for path in use_trees(source).iter().flat_map(|t| expand(t)) {
        let mut base = module.to_string();
        let mut path = path.as_str();
        if let Some(p) = path.strip_prefix("self::") {
            path = p;
        } else if path.starts_with("super::") {
            while let Some(p) = path.strip_prefix("super::") {
                base = base
                    .rsplit_once("::")
                    .map_or(base.clone(), |(b, _)| b.to_string());
                path = p;
            }
        } else if path.starts_with("crate::") {
            base = String::new();
        } else if !modules.contains(&format!(
            "{module}::{}",
            path.split("::").next().unwrap_or("")
        )) {
            // An outside crate or the standard library.
            continue;
        }
        let full = if base.is_empty() {
            path.to_string()
        } else {
            format!("{base}::{path}")
        };
        // The deepest module the path runs through is the file it reads.
        let segments: Vec<&str> = full.split("::").collect();
        let target = (2..=segments.len())
            .rev()
            .map(|k| segments[..k].join("::"))
            .find(|m| modules.contains(m));
        if let Some(target) = target.filter(|t| t != module) {
            found.insert(target);
        }
    }
    found
}

/// The files of `src/rules` and what each imports.
fn rules_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(Path::new("src/rules"));
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
    files
        .iter()
        .map(|f| {
            let source = fs::read_to_string(f).expect("a readable source file");
            let module = module_of(f);
            let edges = imports(&module, &source, &modules);
            (module, edges)
        })
        .collect()
}

/// The modules reachable from `start` by imports.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start.to_string()];
    while let Some(m) = todo.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn no_file_of_the_rules_imports_one_that_imports_it() {
    let graph = rules_graph();
    assert!(graph.len() > 20, "{} files", graph.len());
    // The reader sees the edges it must: movegen's files import the
    // position, and random turns import legality's screen.
    assert!(graph["crate::rules::movegen::random"].contains("crate::rules::movegen::legality"));
    assert!(graph["crate::rules::movegen"].contains("crate::rules::position"));
    for module in graph.keys() {
        assert!(
            !reachable(&graph, module).contains(module),
            "{module} imports itself back through {:?}",
            graph[module]
        );
    }
}

#[test]
fn the_import_reader_finds_a_loop() {
    // Two files of a made-up tree that import each other.
    let modules: BTreeSet<String> = ["crate::t", "crate::t::a", "crate::t::b"]
        .map(String::from)
        .into();
    let a = imports("crate::t::a", "use super::b::{X, y::Z};\n", &modules);
    let b = imports("crate::t::b", "pub(crate) use crate::t::a::W;\n", &modules);
    let graph = BTreeMap::from([
        ("crate::t::a".to_string(), a),
        ("crate::t::b".to_string(), b),
    ]);
    assert!(reachable(&graph, "crate::t::a").contains("crate::t::a"));
    // Tests and comments are not imports.
    let quiet = imports(
        "crate::t::a",
        "// use super::b;\n#[cfg(test)]\nmod tests {\n    use super::super::b::X;\n}\n",
        &modules,
    );
    assert!(quiet.is_empty(), "{quiet:?}");
}
