//! Pages fetched recently, by URL, so that asking about the same page again within the cache's lifetime (15 minutes
//! by default) costs no second download.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::fetch::Page;

/// Most pages kept at once; the oldest goes first.
const MAX_ENTRIES: usize = 64;

/// The cache of one session's WebFetch tool.
#[derive(Debug)]
pub struct PageCache {
    ttl: Duration,
    pages: Mutex<HashMap<String, (Instant, Page)>>,
}

impl PageCache {
    /// A cache whose pages live `ttl`.
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            pages: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Page)>> {
        match self.pages.lock() {
            Ok(pages) => pages,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The page fetched for `url` less than the cache's lifetime ago.
    pub fn get(&self, url: &str) -> Option<Page> {
        let mut pages = self.lock();
        match pages.get(url) {
            Some((at, page)) if at.elapsed() < self.ttl => Some(page.clone()),
            Some(_) => {
                pages.remove(url);
                None
            }
            None => None,
        }
    }

    /// Keeps `page` as fetched for `url` now.
    pub fn put(&self, url: &str, page: Page) {
        let mut pages = self.lock();
        let ttl = self.ttl;
        pages.retain(|_, (at, _)| at.elapsed() < ttl);
        if pages.len() >= MAX_ENTRIES
            && let Some(oldest) = pages
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(k, _)| k.clone())
        {
            pages.remove(&oldest);
        }
        pages.insert(url.to_string(), (Instant::now(), page));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str) -> Page {
        Page {
            url: "https://x.org/".into(),
            status: 200,
            bytes: text.len() as u64,
            text: text.into(),
        }
    }

    #[test]
    fn a_page_is_served_until_it_expires() {
        let cache = PageCache::new(Duration::from_secs(900));
        assert!(cache.get("https://x.org/").is_none());
        cache.put("https://x.org/", page("hello"));
        assert_eq!(
            cache.get("https://x.org/").map(|p| p.text).as_deref(),
            Some("hello")
        );
        let expired = PageCache::new(Duration::ZERO);
        expired.put("https://x.org/", page("hello"));
        assert!(expired.get("https://x.org/").is_none());
    }

    #[test]
    fn the_oldest_page_goes_when_the_cache_is_full() {
        let cache = PageCache::new(Duration::from_secs(900));
        for i in 0..=MAX_ENTRIES {
            cache.put(&format!("https://x.org/{i}"), page("p"));
        }
        assert!(cache.get("https://x.org/0").is_none());
        assert!(cache.get(&format!("https://x.org/{MAX_ENTRIES}")).is_some());
    }
}
