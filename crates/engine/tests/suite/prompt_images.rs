//! Images sent with a prompt, against the fake model server: they reach the request before the text in both API
//! dialects (an Anthropic `image` block, an OpenAI-compatible `image_url` part), a large one sized down, a resumed
//! session sends them again and its stored events show them; what is not an image is refused and nothing is sent.

use std::io::Cursor;
use std::sync::Arc;

use base64::Engine as _;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use serde_json::{Value, json};
use tandem_engine::events::RecordingSink;
use tandem_engine::model::{AnthropicModel, ModelConfig, connect};
use tandem_engine::query::QueryError;
use tandem_engine::session::{
    FittedImage, ImageError, MAX_IMAGE_BYTES, MAX_IMAGE_EDGE, Session, fit_image,
};
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{Script, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::{ApprovalChoice, PromptImage, SessionEvent};

use super::common::{fake_config, openai_config, server, session_with, stored_session};

fn encode(img: DynamicImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).expect("png");
    out.into_inner()
}

/// A small PNG (sent byte for byte).
fn small_png() -> Vec<u8> {
    encode(DynamicImage::ImageRgb8(RgbImage::from_fn(
        48,
        32,
        |x, y| Rgb([x as u8 * 5, y as u8 * 7, 90]),
    )))
}

/// A PNG of noise (it does not compress) larger than the model takes on both counts: its long edge and its file.
fn noisy_png(width: u32, height: u32) -> Vec<u8> {
    let mut state: u32 = 0x2545_f491;
    encode(DynamicImage::ImageRgb8(RgbImage::from_fn(
        width,
        height,
        |_, _| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let [a, b, c, _] = state.to_le_bytes();
            Rgb([a, b, c])
        },
    )))
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn decoded(image: &PromptImage) -> DynamicImage {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .expect("base64");
    image::load_from_memory(&bytes).expect("decodes")
}

fn deny() -> Arc<ScriptedApprover> {
    Arc::new(ScriptedApprover::new([], ApprovalChoice::Deny))
}

fn session_for(ws: &Workspace, config: ModelConfig, sink: &RecordingSink) -> Session {
    let model = connect(config.clone()).expect("client");
    session_with(&ws.root(), model, config, deny(), sink.clone())
}

/// The image (media type, base64 data) and the text of the first user message, as the request carried them.
fn first_prompt(body: &Value) -> (Vec<(String, String)>, String) {
    let messages = body["messages"].as_array().expect("messages");
    let user = messages
        .iter()
        .find(|m| m["role"] == "user")
        .expect("a user message");
    let mut images = Vec::new();
    let mut text = String::new();
    let parts = user["content"].as_array().expect("content parts");
    for (i, part) in parts.iter().enumerate() {
        match part["type"].as_str() {
            // Anthropic.
            Some("image") => {
                assert!(text.is_empty(), "images come before the text");
                assert_eq!(part["source"]["type"], "base64");
                images.push((
                    part["source"]["media_type"]
                        .as_str()
                        .expect("type")
                        .to_string(),
                    part["source"]["data"].as_str().expect("data").to_string(),
                ));
            }
            // OpenAI-compatible.
            Some("image_url") => {
                assert!(text.is_empty(), "images come before the text");
                let url = part["image_url"]["url"].as_str().expect("url");
                let (head, data) = url.split_once(";base64,").expect("a data URL");
                let media = head.strip_prefix("data:").expect("data:");
                images.push((media.to_string(), data.to_string()));
            }
            Some("text") => text.push_str(part["text"].as_str().expect("text")),
            other => panic!("part {i}: unexpected {other:?}"),
        }
    }
    (images, text)
}

#[tokio::test]
async fn an_image_goes_before_the_text_in_both_dialects() {
    let png = small_png();
    for dialect in ["anthropic", "openai"] {
        let ws = Workspace::new(&[]).expect("workspace");
        let fake = server(Script::turns([ScriptedTurn::text("A gradient.")])).await;
        let config = match dialect {
            "anthropic" => fake_config(&fake.url()),
            _ => openai_config(&fake.url()),
        };
        let sink = RecordingSink::default();
        let s = session_for(&ws, config, &sink);
        let image = fit_image("shot.png", &png).expect("an image");
        let outcome = s
            .send_with_images("what is in this picture?", vec![image])
            .await
            .expect("turn");
        assert_eq!(outcome.final_text, "A gradient.", "{dialect}");

        let requests = fake.requests();
        assert_eq!(requests.len(), 1, "{dialect}");
        assert!(
            requests[0].rejected.is_none(),
            "{dialect}: {:?}",
            requests[0].rejected
        );
        let (images, text) = first_prompt(&requests[0].body);
        assert_eq!(
            images,
            [("image/png".to_string(), b64(&png))],
            "{dialect}: a small image is sent byte for byte"
        );
        assert_eq!(text, "what is in this picture?", "{dialect}");

        // The window is told: the prompt as typed, then its images.
        let events = sink.events();
        let started = events
            .iter()
            .position(|e| matches!(e, SessionEvent::TurnStarted { .. }))
            .expect("turn started");
        assert_eq!(
            events.get(started + 1),
            Some(&SessionEvent::PromptImages {
                images: vec![PromptImage {
                    media_type: "image/png".into(),
                    data: b64(&png),
                }]
            }),
            "{dialect}"
        );
    }
}

#[tokio::test]
async fn a_large_image_is_sized_down_before_it_is_sent_and_images_alone_make_a_prompt() {
    let big = noisy_png(2400, 1600);
    assert!(big.len() > MAX_IMAGE_BYTES, "the file is too large as well");
    let fitted = fit_image("big.png", &big).expect("fits");
    assert_eq!(fitted.original_size, [2400, 1600]);
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("Noise.")])).await;
    let sink = RecordingSink::default();
    let s = session_for(&ws, fake_config(&fake.url()), &sink);
    s.send_with_images("", vec![fitted.clone()])
        .await
        .expect("turn");

    let requests = fake.requests();
    assert!(requests[0].rejected.is_none(), "{:?}", requests[0].rejected);
    let content = &requests[0].body["messages"][0]["content"];
    assert_eq!(
        content.as_array().map(Vec::len),
        Some(1),
        "no empty text block beside the image: {content}"
    );
    let (images, _) = first_prompt(&requests[0].body);
    let (media, data) = &images[0];
    assert_eq!(media, "image/jpeg", "an opaque image is re-encoded as JPEG");
    assert!(data.len() <= 5_000_000, "{} base64 bytes", data.len());
    let sent = decoded(&PromptImage {
        media_type: media.clone(),
        data: data.clone(),
    });
    assert!(sent.width().max(sent.height()) <= MAX_IMAGE_EDGE);
    assert_eq!([sent.width(), sent.height()], fitted.size);
    // Proportions kept (to a pixel).
    assert!((sent.width() as f64 / sent.height() as f64 - 1.5).abs() < 0.01);
}

#[tokio::test]
async fn a_resumed_session_sends_its_images_again_and_its_events_show_them() {
    let ws = Workspace::new(&[]).expect("workspace");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(SessionStore::open(&dir.path().join("sessions.db")).expect("store"));
    let fake = server(Script::turns([
        ScriptedTurn::text("A gradient."),
        ScriptedTurn::text("Still a gradient."),
    ]))
    .await;
    let png = small_png();
    let s = stored_session(ws.root(), store.clone(), &fake, None);
    let image = fit_image("shot.png", &png).expect("an image");
    s.send_with_images("what is this?", vec![image])
        .await
        .expect("turn");
    let id = s.id().to_string();
    drop(s);

    let loaded = store.load_session(&id).expect("load").expect("stored");
    assert!(
        loaded.events.iter().any(|e| matches!(
            &e.event,
            SessionEvent::PromptImages { images } if images.len() == 1 && images[0].data == b64(&png)
        )),
        "the stored events show the image again when the session is reopened"
    );

    tandem_engine::testing::wait_released(&store, &id).await;
    let resumed = stored_session(ws.root(), store.clone(), &fake, Some(&id));
    resumed.send("and now?").await.expect("turn");
    let requests = fake.requests();
    let last = requests.last().expect("a request");
    assert!(last.rejected.is_none(), "{:?}", last.rejected);
    assert_eq!(
        last.body["messages"][0]["content"][0],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(&png)}})
    );
    assert_eq!(last.body["messages"][2]["content"][0]["text"], "and now?");
}

#[tokio::test]
async fn what_is_not_an_image_is_refused_and_nothing_is_sent() {
    let mut truncated = small_png();
    truncated.truncate(truncated.len() / 2);
    let cases: [(&str, &[u8]); 3] = [
        ("notes.txt", b"just some text"),
        ("broken.png", &truncated),
        ("vector.svg", b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
    ];
    for (name, bytes) in cases {
        let err = fit_image(name, bytes).expect_err(name);
        assert!(
            matches!(err, ImageError::NotAnImage { .. }),
            "{name}: {err}"
        );
        let shown = err.to_string();
        assert!(shown.starts_with(name), "{shown}");
        assert!(shown.contains("PNG, JPEG, GIF or WebP"), "{shown}");
    }

    // Images cannot go with the engine's own commands: the turn ends with why, and no request is made.
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([ScriptedTurn::text("unused")])).await;
    let sink = RecordingSink::default();
    let model = Arc::new(AnthropicModel::new(fake_config(&fake.url())).expect("client"));
    let s = session_with(
        &ws.root(),
        model,
        fake_config(&fake.url()),
        deny(),
        sink.clone(),
    );
    let image: FittedImage = fit_image("shot.png", &small_png()).expect("an image");
    let refused = s.send_with_images("/compact", vec![image]).await;
    assert!(
        matches!(&refused, Err(QueryError::Prompt(why)) if why.contains("images cannot go with /compact")),
        "{refused:?}"
    );
    assert!(fake.requests().is_empty());
    assert!(s.history().await.is_empty());
}
