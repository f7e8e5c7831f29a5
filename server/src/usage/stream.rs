//! What lets an export be read as its bytes arrive, never held whole: a reader that lets UTF-8
//! text through and stops at the first byte that is not, and one that ends every line in LF.

use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

/// Bytes asked of the source at a time.
const CHUNK: usize = 64 * 1024;

/// A reader of `inner`'s bytes as far as they are UTF-8 text: the first byte that is not ends
/// the reading with an error, and its position (from 0) is left in `bad` for the problem to
/// name. A character split between two reads of `inner` is passed on whole.
pub struct Utf8<R> {
    inner: R,
    buf: Vec<u8>,
    /// Next byte handed out.
    pos: usize,
    /// End of the checked text in `buf`; `valid..filled` starts a character not yet whole.
    valid: usize,
    filled: usize,
    /// Bytes of the source before `buf[0]`.
    offset: u64,
    /// Set when `buf[valid]` is a byte that is not UTF-8.
    broken: bool,
    bad: Rc<Cell<Option<u64>>>,
}

impl<R: Read> Utf8<R> {
    pub fn new(inner: R, bad: Rc<Cell<Option<u64>>>) -> Self {
        Self {
            inner,
            buf: vec![0; CHUNK],
            pos: 0,
            valid: 0,
            filled: 0,
            offset: 0,
            broken: false,
            bad,
        }
    }

    fn refuse(&mut self, at: u64) -> io::Error {
        self.bad.set(Some(at));
        io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text")
    }
}

impl<R: Read> BufRead for Utf8<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.valid {
            return Ok(&self.buf[self.pos..self.valid]);
        }
        if self.broken {
            return Err(self.refuse(self.offset + self.valid as u64));
        }
        // What is left is the start of a character: to the front, and read on.
        self.buf.copy_within(self.valid..self.filled, 0);
        self.offset += self.valid as u64;
        self.filled -= self.valid;
        self.pos = 0;
        self.valid = 0;
        while self.valid == 0 {
            let n = match self.inner.read(&mut self.buf[self.filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                if self.filled > 0 {
                    // The text ends inside a character.
                    return Err(self.refuse(self.offset));
                }
                return Ok(&[]);
            }
            self.filled += n;
            match std::str::from_utf8(&self.buf[..self.filled]) {
                Ok(_) => self.valid = self.filled,
                Err(e) => {
                    self.valid = e.valid_up_to();
                    if e.error_len().is_some() {
                        self.broken = true;
                        if self.valid == 0 {
                            return Err(self.refuse(self.offset));
                        }
                    }
                }
            }
        }
        Ok(&self.buf[..self.valid])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.valid);
    }
}

impl<R: Read> Read for Utf8<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let have = self.fill_buf()?;
        let n = have.len().min(out.len());
        out[..n].copy_from_slice(&have[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// A reader of `inner`'s text with every line ending in LF: CR LF (a Windows file, or a
/// browser's textarea) and a lone CR are LF, so that lines are numbered as a person counts them.
pub struct Lf<R> {
    inner: R,
    after_cr: bool,
}

impl<R: BufRead> Lf<R> {
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            after_cr: false,
        }
    }
}

impl<R: BufRead> Read for Lf<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            let src = self.inner.fill_buf()?;
            if src.is_empty() || out.is_empty() {
                return Ok(0);
            }
            let (mut n, mut used) = (0, 0);
            for &b in src {
                if n == out.len() {
                    break;
                }
                used += 1;
                match b {
                    b'\r' => {
                        out[n] = b'\n';
                        n += 1;
                        self.after_cr = true;
                    }
                    // The LF of a CR LF: already written.
                    b'\n' if self.after_cr => self.after_cr = false,
                    _ => {
                        out[n] = b;
                        n += 1;
                        self.after_cr = false;
                    }
                }
            }
            self.inner.consume(used);
            if n > 0 {
                return Ok(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that gives its bytes `step` at a time, as a connection does.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn through(bytes: &[u8], step: usize) -> (Result<Vec<u8>, ()>, Option<u64>) {
        let bad = Rc::new(Cell::new(None));
        let mut out = Vec::new();
        let read = Utf8::new(Trickle(bytes, step), bad.clone())
            .read_to_end(&mut out)
            .map(|_| out)
            .map_err(|_| ());
        (read, bad.get())
    }

    /// Characters split at every point between reads come through whole; the first byte
    /// that is not UTF-8 is named where it stands, after the text before it.
    #[test]
    fn utf8_passes_text_and_names_the_first_bad_byte() {
        let text = "heure;modèle\n€ 1;🙂\n".repeat(50);
        for step in [1, 2, 3, 5, 7, 4096] {
            let (read, bad) = through(text.as_bytes(), step);
            assert_eq!(read.expect("text"), text.as_bytes(), "step {step}");
            assert_eq!(bad, None);
        }
        let mut bytes = text.clone().into_bytes();
        bytes[700] = 0xff;
        for step in [1, 3, 4096] {
            let (read, bad) = through(&bytes, step);
            assert!(read.is_err());
            assert_eq!(bad, Some(700), "step {step}");
        }
        // A text cut inside a character.
        let (read, bad) = through(&"a€".as_bytes()[..3], 1);
        assert!(read.is_err());
        assert_eq!(bad, Some(1));
    }

    #[test]
    fn every_line_ends_in_lf() {
        let mut out = String::new();
        let src = io::BufReader::with_capacity(1, "a\r\nb\rc\n\r\nd\r".as_bytes());
        Lf::new(src).read_to_string(&mut out).expect("reads");
        assert_eq!(out, "a\nb\nc\n\nd\n");
    }
}
