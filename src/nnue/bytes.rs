//! Reading little-endian numbers off a byte slice (the data and network
//! files): every read past the end gives `None` and moves nothing.

pub struct Bytes<'a> {
    b: &'a [u8],
    /// where the next read starts
    pub at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(b: &'a [u8], at: usize) -> Self {
        Bytes { b, at }
    }

    /// The bytes read so far from `start`.
    pub fn since(&self, start: usize) -> &'a [u8] {
        &self.b[start..self.at]
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N).map(|s| s.try_into().expect("N bytes"))
    }

    pub fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[x]| x)
    }

    pub fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// `n` little-endian i16s.
    pub fn i16s(&mut self, n: usize) -> Option<Vec<i16>> {
        let bytes = self.take(n.checked_mul(2)?)?;
        Some(
            bytes
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect(),
        )
    }

    /// A text of at most 255 bytes after its length byte; `Some(Err)` when
    /// it is not UTF-8.
    pub fn text(&mut self) -> Option<Result<String, std::string::FromUtf8Error>> {
        let n = self.u8()? as usize;
        Some(String::from_utf8(self.take(n)?.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::Bytes;

    #[test]
    fn reads_stop_at_the_end_and_move_nothing() {
        let mut r = Bytes::new(&[1, 2, 3, 4, 5, 2, b'h', b'i', 9], 0);
        assert_eq!(r.u16(), Some(0x0201));
        assert_eq!(r.u16(), Some(0x0403));
        assert_eq!(r.u8(), Some(5));
        assert_eq!(r.text().map(|t| t.unwrap()), Some("hi".to_string()));
        assert_eq!(r.since(5), &[2, b'h', b'i']);
        assert_eq!(r.u32(), None);
        assert_eq!(r.i16s(1), None);
        assert_eq!(r.at, 8);
        assert_eq!(r.u8(), Some(9));
        assert_eq!(r.u8(), None);
        let mut r = Bytes::new(&[3, b'a', 0xff, b'b'], 0);
        assert!(r.text().unwrap().is_err());
        assert_eq!(Bytes::new(&[4, b'a'], 0).text(), None);
    }
}
