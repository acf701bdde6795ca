//! The Read tool on every kind of file: text (numbering, offset/limit, long lines, UTF-16), images (as image
//! blocks, scaled down when large), PDFs (text per page, `pages`), notebooks (cells with outputs), and refusals
//! (binary files, devices, folders). A read is what lets a later edit through.

use std::fs;

use base64::Engine as _;
use serde_json::json;
use tandem_engine::exec::run_tool_use;
use tandem_engine::model::{ContentBlock, ImageSource, ResultBlock, ToolResultContent};
use tokio_util::sync::CancellationToken;

use tandem_engine::testing::{TestRuntime, Workspace, call};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_is_numbered_paged_and_cut() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let text: String = (1..=2500).map(|i| format!("line {i}\n")).collect();
    fs::write(root.join("long.txt"), &text).expect("write");
    fs::write(root.join("wide.txt"), format!("{}\n", "x".repeat(3000))).expect("write");
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(
        "héllo\r\nwörld\r\n"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes()),
    );
    fs::write(root.join("u16.txt"), utf16).expect("write");
    let rt = TestRuntime::new(&root).build();

    let r = call(&rt, "Read", &json!({"file_path": "long.txt"})).await;
    assert!(r.ok);
    assert!(r.text.starts_with("     1\tline 1\n"));
    assert!(r.text.contains("  2000\tline 2000\n") && !r.text.contains("line 2001\n"));
    assert!(r.text.contains("Showing lines 1-2000 of 2500"));

    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "long.txt", "offset": 2499, "limit": 10}),
    )
    .await;
    assert_eq!(r.text, "  2499\tline 2499\n  2500\tline 2500\n");

    let r = call(&rt, "Read", &json!({"file_path": "wide.txt"})).await;
    assert!(r.text.contains("[line truncated]") && r.text.len() < 2100);

    let r = call(&rt, "Read", &json!({"file_path": "u16.txt"})).await;
    assert_eq!(r.text, "     1\théllo\n     2\twörld\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refuses_binaries_devices_and_folders() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fs::write(root.join("a.zip"), b"PK\x03\x04").expect("write");
    fs::create_dir(root.join("dir")).expect("mkdir");
    let rt = TestRuntime::new(&root).build();
    for (path, want) in [
        ("a.zip", "binary"),
        ("/dev/zero", "device"),
        ("dir", "directory"),
        ("missing.txt", "does not exist"),
    ] {
        let r = call(&rt, "Read", &json!({"file_path": path})).await;
        assert!(!r.ok && r.text.contains(want), "{path}: {}", r.text);
    }
}

fn image_of(out: &ContentBlock) -> (String, Vec<u8>) {
    let ContentBlock::ToolResult {
        content: ToolResultContent::Blocks(blocks),
        ..
    } = out
    else {
        panic!("not blocks: {out:?}");
    };
    let Some(ResultBlock::Image {
        source: ImageSource::Base64 { media_type, data },
    }) = blocks.first()
    else {
        panic!("no image block");
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64");
    (media_type.clone(), bytes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_come_back_as_image_blocks_scaled_down_when_large() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let small = image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([x as u8, y as u8, 90]));
    small.save(root.join("small.png")).expect("png");
    let big = image::RgbImage::from_fn(3000, 1500, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, 7])
    });
    big.save(root.join("big.jpg")).expect("jpeg");
    let rt = TestRuntime::new(&root).build();
    let cancel = CancellationToken::new();

    let out = run_tool_use(
        &rt,
        "1",
        "Read",
        &json!({"file_path": "small.png"}),
        &cancel,
    )
    .await;
    let (media, bytes) = image_of(&out.block);
    assert_eq!(media, "image/png");
    assert_eq!(
        bytes,
        fs::read(root.join("small.png")).expect("read"),
        "a small image is sent as it is"
    );

    let out = run_tool_use(&rt, "2", "Read", &json!({"file_path": "big.jpg"}), &cancel).await;
    let (media, bytes) = image_of(&out.block);
    assert_eq!(media, "image/jpeg");
    let shown = image::load_from_memory(&bytes).expect("decodes");
    assert_eq!((shown.width(), shown.height()), (2000, 1000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_or_damaged_image_is_refused_not_sent() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let picture = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8, y as u8, 90]));
    picture.save(root.join("whole.png")).expect("png");
    picture.save(root.join("whole.jpg")).expect("jpeg");
    for (whole, cut) in [("whole.png", "cut.png"), ("whole.jpg", "cut.jpg")] {
        let bytes = fs::read(root.join(whole)).expect("read");
        fs::write(root.join(cut), &bytes[..bytes.len() / 2]).expect("write");
    }
    let rt = TestRuntime::new(&root).build();
    let cancel = CancellationToken::new();
    for cut in ["cut.png", "cut.jpg"] {
        let out = run_tool_use(&rt, "1", "Read", &json!({"file_path": cut}), &cancel).await;
        let ContentBlock::ToolResult {
            content, is_error, ..
        } = &out.block
        else {
            panic!("no result");
        };
        assert!(*is_error, "{cut}: {content:?}");
        assert!(
            content.as_text().contains("is not a readable image"),
            "{cut}: {content:?}"
        );
    }
    let out = run_tool_use(
        &rt,
        "2",
        "Read",
        &json!({"file_path": "whole.png"}),
        &cancel,
    )
    .await;
    assert_eq!(image_of(&out.block).0, "image/png");
}

fn pdf(pages: usize) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc
        .add_object(dictionary! {"Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier"});
    let resources = doc.add_object(dictionary! {"Font" => dictionary! {"F1" => font}});
    let mut kids = Vec::new();
    for n in 1..=pages {
        let content = Content {
            operations: vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 24.into()]),
                Operation::new("Td", vec![100.into(), 600.into()]),
                Operation::new(
                    "Tj",
                    vec![Object::string_literal(format!("Text of page {n}"))],
                ),
                Operation::new("ET", vec![]),
            ],
        };
        let stream = doc.add_object(Stream::new(
            dictionary! {},
            content.encode().expect("encode"),
        ));
        let page = doc
            .add_object(dictionary! {"Type" => "Page", "Parent" => pages_id, "Contents" => stream});
        kids.push(page.into());
    }
    let pages_dict = dictionary! {
        "Type" => "Pages", "Kids" => kids, "Count" => pages as i64, "Resources" => resources,
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    };
    doc.objects.insert(pages_id, Object::Dictionary(pages_dict));
    let catalog = doc.add_object(dictionary! {"Type" => "Catalog", "Pages" => pages_id});
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save");
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdfs_are_read_as_text_per_page() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fs::write(root.join("short.pdf"), pdf(2)).expect("write");
    fs::write(root.join("long.pdf"), pdf(12)).expect("write");
    let rt = TestRuntime::new(&root).build();

    let r = call(&rt, "Read", &json!({"file_path": "short.pdf"})).await;
    assert!(r.ok, "{}", r.text);
    assert!(
        r.text.contains("--- Page 1 of 2 ---") && r.text.contains("Text of page 2"),
        "{}",
        r.text
    );

    let r = call(&rt, "Read", &json!({"file_path": "long.pdf"})).await;
    assert!(!r.ok && r.text.contains("give `pages`"), "{}", r.text);

    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "long.pdf", "pages": "11-12"}),
    )
    .await;
    assert!(
        r.ok && r.text.contains("Text of page 11") && !r.text.contains("Text of page 10"),
        "{}",
        r.text
    );

    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "long.pdf", "pages": "13"}),
    )
    .await;
    assert!(!r.ok && r.text.contains("past its end"), "{}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notebooks_show_cells_and_outputs() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let nb = json!({
        "cells": [
            {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Title\n", "words"]},
            {"cell_type": "code", "id": "calc", "execution_count": 1, "metadata": {}, "source": "print(1 + 2)",
             "outputs": [{"output_type": "stream", "name": "stdout", "text": ["3\n"]},
                         {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}]}
        ],
        "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5
    });
    fs::write(
        root.join("n.ipynb"),
        serde_json::to_string_pretty(&nb).expect("json"),
    )
    .expect("write");
    let rt = TestRuntime::new(&root).build();
    let r = call(&rt, "Read", &json!({"file_path": "n.ipynb"})).await;
    assert!(r.ok, "{}", r.text);
    assert!(
        r.text
            .contains("<cell id=\"intro\" index=\"0\" type=\"markdown\">\n# Title\nwords\n</cell>")
    );
    assert!(r.text.contains(
        "<cell id=\"calc\" index=\"1\" type=\"code\" language=\"python\">\nprint(1 + 2)\n"
    ));
    assert!(r.text.contains("3\n") && r.text.contains("ValueError: bad"));
    let r = call(
        &rt,
        "NotebookEdit",
        &json!({"notebook_path": "n.ipynb", "cell_id": "calc", "new_source": "print(4)"}),
    )
    .await;
    assert!(r.ok, "a read notebook can be edited: {}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn special_files_never_block_a_read() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    let made = std::process::Command::new("mkfifo")
        .arg(root.join("pipe.txt"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let rt = TestRuntime::new(&root).build();
    // /proc/kmsg never ends: read to its end it would wait for the next kernel message for ever. Readable or not
    // (it needs privileges), the read must come back; the deadline only turns a hang into a failure.
    for (path, want) in [
        ("pipe.txt", Some("not a regular file")),
        ("/proc/kmsg", None),
    ] {
        let r = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            call(&rt, "Read", &json!({"file_path": path})),
        )
        .await
        .unwrap_or_else(|_| panic!("reading {path} blocked"));
        if let Some(want) = want {
            assert!(!r.ok && r.text.contains(want), "{path}: {}", r.text);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_read_is_bounded_by_read_and_never_saved_to_a_file() {
    use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn};
    let ws = Workspace::new(&[]).expect("workspace");
    let line = "x".repeat(300);
    let text: String = (1..=1500).map(|i| format!("{i} {line}\n")).collect();
    fs::write(ws.root().join("big.txt"), &text).expect("write");
    let fake = super::common::server(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::ToolUse {
                id: "toolu_a".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("big.txt")}),
            },
            ScriptBlock::ToolUse {
                id: "toolu_b".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("big.txt"), "offset": 700}),
            },
            ScriptBlock::ToolUse {
                id: "toolu_c".into(),
                name: "Read".into(),
                input: json!({"file_path": ws.path("big.txt"), "offset": 1000}),
            },
        ]),
        ScriptedTurn::text("read"),
    ]))
    .await;
    let session = super::common::session(
        &ws.root(),
        &fake,
        std::sync::Arc::new(ScriptedApprover::new(
            [],
            tandem_protocol::ApprovalChoice::Deny,
        )),
        tandem_engine::events::RecordingSink::default(),
    );
    session.send("read it").await.expect("turn");

    let requests = fake.requests();
    let results = requests[1].body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_array())
        .expect("the tool results")
        .clone();
    assert_eq!(results.len(), 3);
    for result in &results {
        let content = result["content"].to_string();
        assert!(
            !content.contains("persisted-output"),
            "Read's result was saved to a file"
        );
        assert!(content.len() < 110_000, "{} bytes", content.len());
        assert!(content.contains("offset"), "it says how to read on");
    }
}
