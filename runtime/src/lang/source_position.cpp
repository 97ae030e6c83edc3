// Source positions of code addresses from the executable's DWARF line table (source_position.h),
// written from the DWARF 5 standard, section 6.2 (and DWARF 4's for the older header).
#include "lang/source_position.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unwind.h>

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace cairn::lang {
namespace {

// --- The executable's image ---

// A section's bytes in the mapped file (empty: absent).
struct Bytes {
  const uint8_t *data = nullptr;
  size_t size = 0;
};

struct Image {
  bool tried = false;  // the mapping was attempted (once: invariant 1)
  bool usable = false;
  Bytes line, line_str, str;
  uintptr_t bias = 0;  // run-time address minus link-time address
  // The link-time bounds of the executable's code segments, [low, high).
  static constexpr int kMaxCode = 8;
  uintptr_t code_low[kMaxCode] = {}, code_high[kMaxCode] = {};
  int code_count = 0;
};

Image image;

bool InFile(size_t offset, size_t size, size_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

// Reads the ELF64 file at `base` (file_size bytes): its sections and code segments, and the load
// bias from the program headers the loader mapped (AT_PHDR), matched against the file's.
bool ReadElf(const uint8_t *base, size_t file_size) {
  if (file_size < sizeof(Elf64_Ehdr)) return false;
  Elf64_Ehdr eh;
  std::memcpy(&eh, base, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_phentsize != sizeof(Elf64_Phdr))
    return false;
  // Program headers: the code segments and, from where their table was loaded, the bias.
  if (!InFile(eh.e_phoff, size_t(eh.e_phnum) * sizeof(Elf64_Phdr), file_size)) return false;
  uintptr_t phdr_vaddr = 0;
  bool phdr_mapped = false;
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, base + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type != PT_LOAD) continue;
    if (eh.e_phoff >= ph.p_offset && eh.e_phoff - ph.p_offset < ph.p_filesz) {
      phdr_vaddr = ph.p_vaddr + (eh.e_phoff - ph.p_offset);
      phdr_mapped = true;
    }
    if ((ph.p_flags & PF_X) && image.code_count < Image::kMaxCode) {
      image.code_low[image.code_count] = ph.p_vaddr;
      image.code_high[image.code_count] = ph.p_vaddr + ph.p_memsz;
      ++image.code_count;
    }
  }
  const uintptr_t at_phdr = getauxval(AT_PHDR);
  if (!phdr_mapped || at_phdr == 0) return false;
  image.bias = at_phdr - phdr_vaddr;
  // Section headers (e_shnum and e_shstrndx may be escaped into section 0's header).
  if (eh.e_shoff == 0 || !InFile(eh.e_shoff, sizeof(Elf64_Shdr), file_size)) return false;
  Elf64_Shdr first;
  std::memcpy(&first, base + eh.e_shoff, sizeof first);
  const size_t count = eh.e_shnum != 0 ? eh.e_shnum : first.sh_size;
  const size_t names_index = eh.e_shstrndx != SHN_XINDEX ? eh.e_shstrndx : first.sh_link;
  // (The count first against what the file can hold: count * size could wrap.)
  if (count > (file_size - eh.e_shoff) / sizeof(Elf64_Shdr) ||
      !InFile(eh.e_shoff, count * sizeof(Elf64_Shdr), file_size) || names_index >= count)
    return false;
  auto header = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, base + eh.e_shoff + i * sizeof sh, sizeof sh);
    return sh;
  };
  const Elf64_Shdr names = header(names_index);
  if (!InFile(names.sh_offset, names.sh_size, file_size)) return false;
  for (size_t i = 0; i < count; ++i) {
    const Elf64_Shdr sh = header(i);
    if (sh.sh_name >= names.sh_size || sh.sh_type == SHT_NOBITS) continue;
    const char *name = reinterpret_cast<const char *>(base + names.sh_offset + sh.sh_name);
    const size_t room = names.sh_size - sh.sh_name;
    if (strnlen(name, room) == room) continue;
    Bytes *into = nullptr;
    if (std::strcmp(name, ".debug_line") == 0) into = &image.line;
    if (std::strcmp(name, ".debug_line_str") == 0) into = &image.line_str;
    if (std::strcmp(name, ".debug_str") == 0) into = &image.str;
    // A compressed section is left out (2): then no position, rather than a decompressor here.
    if (into == nullptr || (sh.sh_flags & SHF_COMPRESSED) ||
        !InFile(sh.sh_offset, sh.sh_size, file_size))
      continue;
    into->data = base + sh.sh_offset;
    into->size = sh.sh_size;
  }
  return image.line.data != nullptr;
}

const Image *TheImage() {
  if (image.tried) return image.usable ? &image : nullptr;
  image.tried = true;
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st{};
  void *m = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_size > 0)
    m = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED) return nullptr;
  image.usable = ReadElf(static_cast<const uint8_t *>(m), size_t(st.st_size));
  if (!image.usable) {
    munmap(m, size_t(st.st_size));
    return nullptr;
  }
  return &image;
}

// --- Reading a section ---

// A cursor over a section's bytes: every read past the end sets `bad` and yields 0 (2).
struct Reader {
  const uint8_t *p;
  const uint8_t *end;
  bool bad = false;

  size_t left() const { return size_t(end - p); }
  uint64_t Fixed(size_t n) {  // little-endian, n <= 8
    if (n > left()) {
      bad = true;
      p = end;
      return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
    p += n;
    return v;
  }
  uint8_t U8() { return uint8_t(Fixed(1)); }
  uint64_t Uleb() {
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (p == end) {
        bad = true;
        return 0;
      }
      const uint8_t b = *p++;
      if (shift < 64) v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  int64_t Sleb() {
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    do {
      if (p == end) {
        bad = true;
        return 0;
      }
      b = *p++;
      if (shift < 64) v |= uint64_t(b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) v |= ~uint64_t(0) << shift;
    return int64_t(v);
  }
  std::string_view CString() {
    const void *nul = std::memchr(p, 0, left());
    if (nul == nullptr) {
      bad = true;
      p = end;
      return {};
    }
    std::string_view s(reinterpret_cast<const char *>(p),
                       size_t(static_cast<const uint8_t *>(nul) - p));
    p += s.size() + 1;
    return s;
  }
  void Skip(uint64_t n) {
    if (n > left()) {
      bad = true;
      p = end;
    } else {
      p += n;
    }
  }
};

// A NUL-terminated string at `offset` of a string section.
std::string_view StringAt(const Bytes &section, uint64_t offset, bool *bad) {
  if (section.data == nullptr || offset >= section.size) {
    *bad = true;
    return {};
  }
  Reader r{section.data + offset, section.data + section.size};
  std::string_view s = r.CString();
  if (r.bad) *bad = true;
  return s;
}

// DWARF 5, 7.22 and 7.5.6: the line table's opcodes, entry contents and forms this reader knows.
enum : uint8_t {
  kLnsCopy = 1,
  kLnsAdvancePc = 2,
  kLnsAdvanceLine = 3,
  kLnsSetFile = 4,
  kLnsSetColumn = 5,
  kLnsNegateStmt = 6,
  kLnsSetBasicBlock = 7,
  kLnsConstAddPc = 8,
  kLnsFixedAdvancePc = 9,
  kLnsSetPrologueEnd = 10,
  kLnsSetEpilogueBegin = 11,
  kLnsSetIsa = 12,
  kLneEndSequence = 1,
  kLneSetAddress = 2,
  kLneDefineFile = 3,
  kLneSetDiscriminator = 4,
};
enum : uint64_t { kLnctPath = 1, kLnctDirectoryIndex = 2 };
enum : uint64_t {
  kFormBlock2 = 0x03,
  kFormBlock4 = 0x04,
  kFormData2 = 0x05,
  kFormData4 = 0x06,
  kFormData8 = 0x07,
  kFormString = 0x08,
  kFormBlock = 0x09,
  kFormBlock1 = 0x0a,
  kFormData1 = 0x0b,
  kFormSdata = 0x0d,
  kFormStrp = 0x0e,
  kFormUdata = 0x0f,
  kFormData16 = 0x1e,
  kFormLineStrp = 0x1f,
};

// One value of a DWARF 5 directory or file entry: a string (path) or a number (index). False
// for a form this reader does not know (then the table cannot be read further).
bool ReadForm(Reader &r, uint64_t form, bool offset64, std::string_view *text, uint64_t *number) {
  bool bad = false;
  switch (form) {
    case kFormString:
      *text = r.CString();
      break;
    case kFormLineStrp:
      *text = StringAt(image.line_str, r.Fixed(offset64 ? 8 : 4), &bad);
      break;
    case kFormStrp:
      *text = StringAt(image.str, r.Fixed(offset64 ? 8 : 4), &bad);
      break;
    case kFormData1:
      *number = r.Fixed(1);
      break;
    case kFormData2:
      *number = r.Fixed(2);
      break;
    case kFormData4:
      *number = r.Fixed(4);
      break;
    case kFormData8:
      *number = r.Fixed(8);
      break;
    case kFormData16:
      r.Skip(16);
      break;
    case kFormUdata:
      *number = r.Uleb();
      break;
    case kFormSdata:
      *number = uint64_t(r.Sleb());
      break;
    case kFormBlock:
      r.Skip(r.Uleb());
      break;
    case kFormBlock1:
      r.Skip(r.Fixed(1));
      break;
    case kFormBlock2:
      r.Skip(r.Fixed(2));
      break;
    case kFormBlock4:
      r.Skip(r.Fixed(4));
      break;
    default:  // DW_FORM_strx* would need .debug_str_offsets and the unit's base: not emitted
      return false;
  }
  return !r.bad && !bad;
}

// A line-number program's header (6.2.4), with where its directory and file tables start.
struct Header {
  uint16_t version = 0;
  bool offset64 = false;
  uint8_t address_size = 8;
  uint8_t min_inst_length = 1;
  uint8_t max_ops = 1;
  bool default_is_stmt = true;
  int8_t line_base = 0;
  uint8_t line_range = 1;
  uint8_t opcode_base = 1;
  const uint8_t *opcode_lengths = nullptr;  // opcode_base - 1 of them
  const uint8_t *tables = nullptr;          // the directory table (then the file table)
  const uint8_t *program = nullptr;         // the line-number program
  const uint8_t *end = nullptr;             // the unit's end
};

bool ReadHeader(Reader &r, Header *h) {
  uint64_t length = r.Fixed(4);
  if (length == 0xffffffff) {
    h->offset64 = true;
    length = r.Fixed(8);
  } else if (length >= 0xfffffff0) {
    return false;  // reserved
  }
  if (r.bad || length > r.left()) return false;
  h->end = r.p + length;
  Reader u{r.p, h->end};
  h->version = uint16_t(u.Fixed(2));
  if (h->version < 2 || h->version > 5) return false;
  if (h->version >= 5) {
    h->address_size = u.U8();
    if (u.U8() != 0) return false;  // segment selectors: not on this platform
  }
  const uint64_t header_length = u.Fixed(h->offset64 ? 8 : 4);
  if (u.bad || header_length > u.left()) return false;
  h->program = u.p + header_length;
  h->min_inst_length = u.U8();
  if (h->version >= 4) h->max_ops = u.U8();
  h->default_is_stmt = u.U8() != 0;
  h->line_base = int8_t(u.U8());
  h->line_range = u.U8();
  h->opcode_base = u.U8();
  h->opcode_lengths = u.p;
  u.Skip(h->opcode_base > 0 ? h->opcode_base - 1u : 0u);
  h->tables = u.p;
  return !u.bad && h->line_range != 0 && h->max_ops != 0 && h->opcode_base != 0 &&
         u.p <= h->program;
}

// DWARF 5's directory or file table: reads it all, leaving `r` after it, and gives its entry
// `index`'s path and directory index in *path and *dir (*found: there is such an entry). False if
// the table cannot be read.
bool ReadEntryTable(Reader &r, bool offset64, uint64_t index, std::string_view *path, uint64_t *dir,
                    bool *found) {
  const uint8_t format_count = r.U8();
  uint64_t formats[16][2];
  if (format_count > 16) return false;
  for (int i = 0; i < format_count; ++i) {
    formats[i][0] = r.Uleb();
    formats[i][1] = r.Uleb();
  }
  const uint64_t count = r.Uleb();
  *found = false;
  // Entries of no fields take no bytes: a damaged table could count 2^64 of them.
  if (format_count == 0) return !r.bad;
  for (uint64_t e = 0; e < count && !r.bad; ++e) {
    for (int i = 0; i < format_count; ++i) {
      std::string_view text;
      uint64_t number = 0;
      if (!ReadForm(r, formats[i][1], offset64, &text, &number)) return false;
      if (e != index) continue;
      if (formats[i][0] == kLnctPath) *path = text;
      if (formats[i][0] == kLnctDirectoryIndex) *dir = number;
      *found = true;
    }
  }
  return !r.bad;
}

// The name and directory of the table's entry `file` (the row's file register), as invariant 3
// says. False if the entry cannot be read.
bool FileName(const Header &h, uint64_t file, SourcePosition *out) {
  Reader r{h.tables, h.program};
  std::string_view name, dir;
  if (h.version >= 5) {
    uint64_t file_dir = 0, unused = 0;
    std::string_view unused_path;
    bool found = false, dir_found = false;
    Reader dirs = r;
    // The directory table first (to skip it), then the file's entry, then its directory's.
    if (!ReadEntryTable(r, h.offset64, ~uint64_t(0), &unused_path, &unused, &found) ||
        !ReadEntryTable(r, h.offset64, file, &name, &file_dir, &found) || !found)
      return false;
    if (!ReadEntryTable(dirs, h.offset64, file_dir, &dir, &unused, &dir_found) || !dir_found)
      dir = {};
  } else {
    // DWARF 4: directories from 1 (0: the unit's compilation directory, in .debug_info, which
    // invariant 3 makes unneeded), files from 1, each table ended by an empty entry.
    std::string_view dirs[64];
    uint64_t dir_count = 0;
    for (;;) {
      std::string_view d = r.CString();
      if (r.bad) return false;
      if (d.empty()) break;
      if (dir_count < 64) dirs[dir_count] = d;
      ++dir_count;
    }
    for (uint64_t i = 1;; ++i) {
      std::string_view f = r.CString();
      if (r.bad || f.empty()) return false;
      const uint64_t d = r.Uleb();
      r.Uleb();  // modification time
      r.Uleb();  // length
      if (i != file) continue;
      name = f;
      if (d >= 1 && d <= dir_count && d <= 64) dir = dirs[d - 1];
      break;
    }
  }
  if (name.empty()) return false;
  out->name = name;
  out->directory = name.front() != '/' ? dir : std::string_view();
  return true;
}

// What a lookup of several addresses at once finds (one pass over .debug_line: invariant 1).
struct Query {
  uintptr_t address = 0;  // link-time
  bool found = false;
  SourcePosition position;
};

// The state machine's registers (6.2.2) that a row keeps.
struct Row {
  uint64_t address = 0;
  uint64_t op_index = 0;
  uint64_t file = 1;
  uint64_t line = 1;  // wraps on a malformed table (no overflow of a signed type)
  uint64_t column = 0;
  bool is_stmt = true;
  bool end_sequence = false;
};

// Runs one unit's line-number program, resolving the queries its sequences cover.
void RunProgram(const Header &h, Query *queries, size_t count) {
  Reader r{h.program, h.end};
  Row row;
  row.is_stmt = h.default_is_stmt;
  Row prev;
  bool have_prev = false;
  // The sequence's last row before prev with a line: code of line 0 (instructions LLVM merged
  // from several lines at -O2, as one call sunk out of both branches of an `if`) takes its
  // position (campaign T: such an error had none).
  Row lined;
  bool have_lined = false;
  auto reset = [&] {
    row = Row{};
    row.is_stmt = h.default_is_stmt;
    have_lined = false;
  };
  // A new row: each query in [prev.address, row.address) gets prev, the row covering it.
  auto emit = [&] {
    if (have_prev && !prev.end_sequence && row.address > prev.address) {
      const Row &at = prev.line == 0 && have_lined ? lined : prev;
      for (size_t i = 0; i < count; ++i) {
        Query &q = queries[i];
        if (q.found || q.address < prev.address || q.address >= row.address) continue;
        if (!FileName(h, at.file, &q.position)) continue;
        q.found = true;
        q.position.line = at.line <= INT32_MAX ? uint32_t(at.line) : 0;
        q.position.column = at.column <= INT32_MAX ? uint32_t(at.column) : 0;
      }
    }
    if (have_prev && !prev.end_sequence && prev.line != 0) {
      lined = prev;
      have_lined = true;
    }
    prev = row;
    have_prev = !row.end_sequence;
  };
  auto advance = [&](uint64_t operation_advance) {
    row.address += h.min_inst_length * ((row.op_index + operation_advance) / h.max_ops);
    row.op_index = (row.op_index + operation_advance) % h.max_ops;
  };
  while (r.left() > 0 && !r.bad) {
    const uint8_t op = r.U8();
    if (op >= h.opcode_base) {  // a special opcode
      const uint8_t adjusted = uint8_t(op - h.opcode_base);
      advance(adjusted / h.line_range);
      row.line += uint64_t(int64_t(h.line_base) + adjusted % h.line_range);
      emit();
      continue;
    }
    switch (op) {
      case 0: {  // an extended opcode
        const uint64_t length = r.Uleb();
        if (length == 0 || length > r.left()) return;
        const uint8_t *next = r.p + length;
        const uint8_t sub = r.U8();
        if (sub == kLneEndSequence) {
          row.end_sequence = true;
          emit();
          reset();
        } else if (sub == kLneSetAddress) {
          row.address = r.Fixed(size_t(length - 1) <= 8 ? size_t(length - 1) : 8);
          row.op_index = 0;
        }
        // kLneDefineFile (DWARF 2-4, which LLVM never emits), kLneSetDiscriminator and a vendor's
        // opcodes change nothing this reader keeps: skipped.
        r.p = next;
        break;
      }
      case kLnsCopy:
        emit();
        break;
      case kLnsAdvancePc:
        advance(r.Uleb());
        break;
      case kLnsAdvanceLine:
        row.line += uint64_t(r.Sleb());
        break;
      case kLnsSetFile:
        row.file = r.Uleb();
        break;
      case kLnsSetColumn:
        row.column = r.Uleb();
        break;
      case kLnsNegateStmt:
        row.is_stmt = !row.is_stmt;
        break;
      case kLnsSetBasicBlock:
      case kLnsSetPrologueEnd:
      case kLnsSetEpilogueBegin:
        break;
      case kLnsConstAddPc:
        advance((255 - h.opcode_base) / h.line_range);
        break;
      case kLnsFixedAdvancePc:
        row.address += r.Fixed(2);
        row.op_index = 0;
        break;
      case kLnsSetIsa:
        r.Uleb();
        break;
      default:  // a standard opcode of a later version: skip its arguments
        for (uint8_t i = 0; i < h.opcode_lengths[op - 1]; ++i) r.Uleb();
    }
  }
}

// Resolves each query's link-time address against every unit of .debug_line.
void Resolve(const Image &img, Query *queries, size_t count) {
  Reader r{img.line.data, img.line.data + img.line.size};
  while (r.left() > 0) {
    Header h;
    if (!ReadHeader(r, &h)) return;  // a malformed unit: its length cannot be trusted either
    if (h.version < 5 || h.address_size == 8) RunProgram(h, queries, count);
    r.p = h.end;
    bool all = true;
    for (size_t i = 0; i < count; ++i) all = all && queries[i].found;
    if (all) return;
  }
}

// The link-time address of a run-time one, if it lies in the executable's code.
bool LinkAddress(const Image &img, uintptr_t address, uintptr_t *out) {
  const uintptr_t a = address - img.bias;
  for (int i = 0; i < img.code_count; ++i)
    if (a >= img.code_low[i] && a < img.code_high[i]) {
      *out = a;
      return true;
    }
  return false;
}

bool IsCairnFile(std::string_view name) {
  constexpr std::string_view kSuffix = ".cairn";
  return name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix;
}

// --- The walk ---

constexpr int kMaxFrames = 64;

struct Walk {
  uintptr_t address[kMaxFrames];  // the pc of an interrupted frame, else return address - 1
  bool interrupted[kMaxFrames];
  int count = 0;
};

_Unwind_Reason_Code OnFrame(_Unwind_Context *context, void *arg) {
  auto *walk = static_cast<Walk *>(arg);
  int before = 0;  // set for a frame interrupted by a signal: its ip is the instruction itself
  const uintptr_t ip = _Unwind_GetIPInfo(context, &before);
  if (ip == 0 || walk->count == kMaxFrames) return _URC_END_OF_STACK;
  walk->address[walk->count] = before ? ip : ip - 1;
  walk->interrupted[walk->count] = before != 0;
  ++walk->count;
  return _URC_NO_REASON;
}

}  // namespace

bool FindSourcePosition(uintptr_t address, SourcePosition *out) {
  const Image *img = TheImage();
  if (img == nullptr) return false;
  Query q;
  if (!LinkAddress(*img, address, &q.address)) return false;
  Resolve(*img, &q, 1);
  if (!q.found) return false;
  *out = q.position;
  return true;
}

bool FindCairnPosition(uintptr_t pc, FaultFrame which, SourcePosition *out) {
  const Image *img = TheImage();
  if (img == nullptr) return false;
  Walk walk;
  _Unwind_Backtrace(OnFrame, &walk);
  // The interrupted frame: the unwinder marks it; else the one at pc, if given.
  int interrupted = -1;
  for (int i = 0; i < walk.count && interrupted < 0; ++i)
    if (walk.interrupted[i] || (pc != 0 && walk.address[i] == pc)) interrupted = i;
  if (which == FaultFrame::kCaller && interrupted < 0) return false;
  // The candidates, innermost first, each with its frame's index in the walk: pc (kToucher,
  // which may lie where the unwinder cannot go), else the interrupted frame (kCaller), then the
  // frames after it (all of them without one: cairn_make_resident's caller's).
  Query queries[kMaxFrames + 1];
  int frame[kMaxFrames + 1];
  size_t count = 0;
  auto add = [&](uintptr_t address, int f) {
    // Only addresses in the executable's code are looked up.
    if (LinkAddress(*img, address, &queries[count].address)) frame[count++] = f;
  };
  if (which == FaultFrame::kToucher && pc != 0) add(pc, interrupted);
  if (which == FaultFrame::kCaller) add(walk.address[interrupted], interrupted);
  for (int i = interrupted + 1; i < walk.count; ++i) add(walk.address[i], i);
  Resolve(*img, queries, count);
  auto cairn = [&](size_t i) { return queries[i].found && IsCairnFile(queries[i].position.name); };
  if (which == FaultFrame::kCaller) {
    // A recursion's frames repeat: the innermost call (a return address) that comes again
    // further out is the call that nested too deep, also when the stack ran out in a function
    // the recursion called on the way (campaign T: a helper's call was named, run to run).
    for (size_t q = 0; q < count; ++q) {
      if (frame[q] == interrupted || !cairn(q) || queries[q].position.line == 0) continue;
      for (int k = frame[q] + 1; k < walk.count; ++k)
        if (walk.address[k] == walk.address[frame[q]]) {
          *out = queries[q].position;
          return true;
        }
    }
  }
  for (size_t i = 0; i < count; ++i) {
    if (!cairn(i)) continue;
    // kCaller: the call that made this innermost Cairn frame, in its caller if that is Cairn
    // code (the next frame of the walk), else this frame's own line.
    if (which == FaultFrame::kCaller && i + 1 < count && frame[i + 1] == frame[i] + 1 &&
        cairn(i + 1))
      ++i;
    if (queries[i].position.line == 0) return false;  // code of no one line: no position
    *out = queries[i].position;
    return true;
  }
  return false;
}

size_t FormatPosition(const SourcePosition &position, char *out, size_t size) {
  if (size == 0) return 0;
  const bool slash = !position.directory.empty() && position.directory.back() != '/';
  const int n = std::snprintf(out, size, "%.*s%s%.*s:%" PRIu32 ":%" PRIu32 ": ",
                              int(position.directory.size()), position.directory.data(),
                              slash ? "/" : "", int(position.name.size()), position.name.data(),
                              position.line, position.column);
  if (n < 0) {
    out[0] = '\0';
    return 0;
  }
  return size_t(n) < size ? size_t(n) : size - 1;
}

}  // namespace cairn::lang
