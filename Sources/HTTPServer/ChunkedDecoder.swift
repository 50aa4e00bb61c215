/// Decodes a chunked body (RFC 9112 §7.1) incrementally, byte by byte for the framing and in
/// bulk for chunk data. Chunk extensions are checked against the grammar and ignored;
/// trailer fields are checked as field lines and dropped.
struct ChunkedDecoder {
    private enum State {
        case sizeStart
        case size
        case inExtension(Extension)
        case sizeLF
        case data(remaining: Int)
        case dataCR
        case dataLF
        case trailerLineStart
        case trailerName
        case trailerValue
        case trailerLF
        case finalLF
        case done
    }

    /// chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-value ] )
    private enum Extension {
        case beforeSemicolon(required: Bool)
        case afterSemicolon
        case name
        case afterName
        case afterEquals
        case tokenValue
        case quoted
        case quotedEscape
    }

    private var state = State.sizeStart
    private var size = 0
    private var sizeDigits = 0
    private var lineBytes = 0
    private var trailerBytes = 0

    /// Consumes bytes from `index`; returns true once the last chunk and trailers are done.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, into body: inout [UInt8],
                         limits: RequestParser.Limits) throws(HTTPParseError) -> Bool {
        while index < bytes.count {
            if case .data(let remaining) = state {
                let take = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                state = remaining == take ? .dataCR : .data(remaining: remaining - take)
                continue
            }
            let byte = bytes[index]
            index += 1
            try step(byte, bodyCount: body.count, limits: limits)
            if case .done = state { return true }
        }
        return false
    }

    private mutating func step(_ byte: UInt8, bodyCount: Int, limits: RequestParser.Limits) throws(HTTPParseError) {
        switch state {
        case .sizeStart, .size, .inExtension, .sizeLF:
            lineBytes += 1
            if lineBytes > limits.maxChunkLineBytes {
                throw HTTPParseError(.invalidChunkExtension, "A chunk-size line is longer than \(limits.maxChunkLineBytes) bytes.")
            }
        case .trailerLineStart, .trailerName, .trailerValue, .trailerLF, .finalLF:
            trailerBytes += 1
            if trailerBytes > limits.maxHeaderBytes {
                throw HTTPParseError(.headersTooLarge, "The trailer section is larger than \(limits.maxHeaderBytes) bytes.")
            }
        default:
            break
        }

        switch state {
        case .sizeStart:
            guard let digit = hexValue(byte) else { throw HTTPParseError(.invalidChunkSize, "A chunk size is not hexadecimal.") }
            size = digit
            sizeDigits = 1
            state = .size
        case .size:
            if let digit = hexValue(byte) {
                sizeDigits += 1
                // 15 hex digits cannot overflow Int; the body limit rejects real sizes long before.
                guard sizeDigits <= 15 else { throw HTTPParseError(.invalidChunkSize, "A chunk size is too long.") }
                size = size << 4 | digit
            } else if byte == ASCII.cr {
                state = .sizeLF
            } else if byte == ASCII.semicolon {
                state = .inExtension(.afterSemicolon)
            } else if isOWS(byte) {
                state = .inExtension(.beforeSemicolon(required: true))
            } else {
                throw HTTPParseError(.invalidChunkSize, "A chunk size is not hexadecimal.")
            }
        case .inExtension(let ext):
            try stepExtension(ext, byte)
        case .sizeLF:
            guard byte == ASCII.lf else { throw HTTPParseError(.invalidChunkSize, "A chunk-size line has a bare CR.") }
            lineBytes = 0
            if size == 0 {
                state = .trailerLineStart
            } else {
                guard size <= limits.maxBodyBytes - bodyCount else {
                    throw HTTPParseError(.bodyTooLarge, "The body is larger than \(limits.maxBodyBytes) bytes.")
                }
                state = .data(remaining: size)
            }
        case .data:
            break // handled in bulk by decode
        case .dataCR:
            guard byte == ASCII.cr else { throw HTTPParseError(.invalidChunkTerminator, "Chunk data is not followed by CRLF.") }
            state = .dataLF
        case .dataLF:
            guard byte == ASCII.lf else { throw HTTPParseError(.invalidChunkTerminator, "Chunk data is not followed by CRLF.") }
            state = .sizeStart
        case .trailerLineStart:
            if byte == ASCII.cr {
                state = .finalLF
            } else if isTokenChar(byte) {
                state = .trailerName
            } else {
                throw HTTPParseError(.invalidTrailer, "A trailer line does not start with a field name.")
            }
        case .trailerName:
            if byte == ASCII.colon {
                state = .trailerValue
            } else if !isTokenChar(byte) {
                throw HTTPParseError(.invalidTrailer, "A trailer field name is malformed.")
            }
        case .trailerValue:
            if byte == ASCII.cr {
                state = .trailerLF
            } else if !isFieldValueChar(byte) {
                throw HTTPParseError(.invalidTrailer, "A trailer field value contains a control character.")
            }
        case .trailerLF:
            guard byte == ASCII.lf else { throw HTTPParseError(.invalidTrailer, "A trailer line has a bare CR.") }
            state = .trailerLineStart
        case .finalLF:
            guard byte == ASCII.lf else { throw HTTPParseError(.invalidTrailer, "The chunked body does not end with CRLF.") }
            state = .done
        case .done:
            break
        }
    }

    private mutating func stepExtension(_ ext: Extension, _ byte: UInt8) throws(HTTPParseError) {
        let invalid = HTTPParseError(.invalidChunkExtension, "A chunk extension is malformed.")
        switch ext {
        case .beforeSemicolon(let required):
            if isOWS(byte) { return }
            if byte == ASCII.semicolon { state = .inExtension(.afterSemicolon); return }
            if byte == ASCII.cr && !required { state = .sizeLF; return }
            throw invalid
        case .afterSemicolon:
            if isOWS(byte) { return }
            guard isTokenChar(byte) else { throw invalid }
            state = .inExtension(.name)
        case .name, .afterName:
            if case .name = ext, isTokenChar(byte) { return }
            if isOWS(byte) { state = .inExtension(.afterName); return }
            if byte == ASCII.equals { state = .inExtension(.afterEquals); return }
            if byte == ASCII.semicolon { state = .inExtension(.afterSemicolon); return }
            if byte == ASCII.cr { state = .sizeLF; return }
            throw invalid
        case .afterEquals:
            if isOWS(byte) { return }
            if byte == ASCII.quote { state = .inExtension(.quoted); return }
            guard isTokenChar(byte) else { throw invalid }
            state = .inExtension(.tokenValue)
        case .tokenValue:
            if isTokenChar(byte) { return }
            if isOWS(byte) { state = .inExtension(.beforeSemicolon(required: false)); return }
            if byte == ASCII.semicolon { state = .inExtension(.afterSemicolon); return }
            if byte == ASCII.cr { state = .sizeLF; return }
            throw invalid
        case .quoted:
            if byte == ASCII.quote { state = .inExtension(.beforeSemicolon(required: false)); return }
            if byte == ASCII.backslash { state = .inExtension(.quotedEscape); return }
            guard isFieldValueChar(byte) else { throw invalid }
        case .quotedEscape:
            guard isFieldValueChar(byte) else { throw invalid }
            state = .inExtension(.quoted)
        }
    }
}
