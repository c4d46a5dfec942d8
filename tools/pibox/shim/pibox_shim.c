/*
 * pibox_shim.c: the Pi's LED and button devices for the Pi box, faked at the system-call
 * level so the REAL rpi-ws281x (SPI mode) and lgpio run unchanged under qemu-user.
 *
 * Loaded with LD_PRELOAD into an arm64 process. It answers:
 *   /dev/spidev0.0   SPI_IOC_{WR,RD}_{MODE,BITS_PER_WORD,MAX_SPEED_HZ}, SPI_IOC_MESSAGE(1):
 *                    each transfer's WS2812 bits are decoded (rpi-ws281x sends every data bit
 *                    as 3 SPI bits, 110 = 1 and 100 = 0, at 3x the LED bit rate) and the frame
 *                    is written to $PIBOX_SHIM_DIR/leds;
 *   /dev/gpiomem     a page of memory standing for the GPIO registers (rpi-ws281x sets
 *                    GPIO 10's function to ALT0, SPI MOSI, there; the shim reports it);
 *   /dev/gpiochip0   the GPIO character device's v2 uAPI: GPIO_GET_CHIPINFO_IOCTL,
 *                    GPIO_V2_GET_LINEINFO_IOCTL, GPIO_V2_GET_LINE_IOCTL (a line request's fd is
 *                    a pipe, so poll/ppoll/read work natively), GPIO_V2_LINE_GET_VALUES_IOCTL,
 *                    GPIO_V2_LINE_SET_VALUES_IOCTL, GPIO_V2_LINE_SET_CONFIG_IOCTL. Lines
 *                    written to the FIFO $PIBOX_SHIM_DIR/buttons ("<gpio> <0|1>") set a line's
 *                    level from outside and queue a gpio_v2_line_event on every request that
 *                    watches that edge;
 *   /proc/device-tree/system/linux,revision   the board revision $PIBOX_SHIM_REVISION (hex,
 *                    "none" = no such file), read by rpi-ws281x's and gpiozero's detection;
 *   /proc/device-tree/model, /sys/firmware/devicetree/base/model   $PIBOX_SHIM_MODEL if set.
 * /dev/mem and /dev/vcio (the PWM/PCM path's DMA) are refused with EACCES: under qemu-user
 * they would be the host's.
 * What the shim did goes to $PIBOX_SHIM_DIR/log, one line an event.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <linux/spi/spidev.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_FD 4096
#define CHIP_LINES 58 /* BCM2711 (Pi 4); a Pi 3's BCM2837 has 54 */
#define GPIOMEM_SIZE 4096

enum kind { K_NONE, K_SPI, K_GPIOMEM, K_CHIP, K_LINE };

struct line_req {
    int used;
    int read_fd, write_fd;
    unsigned num_lines;
    uint32_t offsets[GPIO_V2_LINES_MAX];
    uint64_t flags[GPIO_V2_LINES_MAX];
    uint32_t seqno, line_seqno[GPIO_V2_LINES_MAX];
    char consumer[GPIO_MAX_NAME_SIZE];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char fd_kind[MAX_FD];
static short fd_req[MAX_FD];
static struct line_req reqs[64];
static int level[CHIP_LINES]; /* the level on each line; -1 = floating, follows bias */
static uint32_t spi_speed, spi_mode_v, spi_bits = 8;
static volatile uint32_t *gpiomem_view;
static unsigned frames;
static int injector_started;

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static FILE *(*real_fopen)(const char *, const char *);

__attribute__((constructor)) static void shim_init(void)
{
    real_open = dlsym(RTLD_NEXT, "open");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_close = dlsym(RTLD_NEXT, "close");
    real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    real_mmap = dlsym(RTLD_NEXT, "mmap");
    real_fopen = dlsym(RTLD_NEXT, "fopen");
    for (int i = 0; i < CHIP_LINES; i++) level[i] = -1;
}

/* The shim's folder (made on first use, one level, e.g. inside a unit's RuntimeDirectory). */
static const char *shim_dir(void)
{
    const char *dir = getenv("PIBOX_SHIM_DIR");
    if (!dir || !*dir) dir = "/run/pibox-shim";
    mkdir(dir, 0755); /* EEXIST is the usual answer */
    return dir;
}

static void shim_log(const char *fmt, ...)
{
    char path[512], line[1024];
    struct timespec ts;
    va_list ap;
    clock_gettime(CLOCK_REALTIME, &ts);
    int n = snprintf(line, sizeof line, "%ld.%03ld pid=%d ", (long)ts.tv_sec,
                     ts.tv_nsec / 1000000, getpid());
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    snprintf(path, sizeof path, "%s/log", shim_dir());
    int fd = real_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd >= 0) {
        if (write(fd, line, n) < 0) { /* nothing to do: the log is best effort */ }
        real_close(fd);
    }
}

/* A file with `len` bytes of `data`, as an fd (a memfd; seekable, readable). */
static int content_fd(const void *data, size_t len)
{
    int fd = memfd_create("pibox-shim", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (len && write(fd, data, len) != (ssize_t)len) {
        real_close(fd);
        return -1;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

/* Faked files: returns an fd, -1 with errno for a refusal, -2 when the path is not ours. */
static int fake_file(const char *path)
{
    if (!strcmp(path, "/proc/device-tree/system/linux,revision")) {
        const char *rev = getenv("PIBOX_SHIM_REVISION");
        if (!rev || !*rev) return -2;
        if (!strcmp(rev, "none")) {
            errno = ENOENT;
            return -1;
        }
        uint32_t v = (uint32_t)strtoul(rev, NULL, 16);
        unsigned char be[4] = {v >> 24, v >> 16, v >> 8, v};
        return content_fd(be, 4);
    }
    if (!strcmp(path, "/proc/device-tree/model") ||
        !strcmp(path, "/sys/firmware/devicetree/base/model")) {
        const char *model = getenv("PIBOX_SHIM_MODEL");
        if (!model || !*model) return -2;
        return content_fd(model, strlen(model) + 1); /* the device tree's NUL included */
    }
    if (!strcmp(path, "/dev/mem") || !strcmp(path, "/dev/vcio")) {
        shim_log("refused open %s (the PWM/PCM path's DMA is not emulated)", path);
        errno = EACCES;
        return -1;
    }
    return -2;
}

static void mark(int fd, enum kind k, int req)
{
    if (fd >= 0 && fd < MAX_FD) {
        fd_kind[fd] = k;
        fd_req[fd] = req;
    }
}

static void *injector(void *arg);

/* PIBOX_SHIM_NODES=1 (the Pi box under systemd): a device is there only when its node is,
 * and opening it takes the node's own permissions, checked by the kernel for this process's
 * user and groups (the box's pi-hardware.sh makes the nodes with a Pi's owners and modes:
 * spidev0.0 only once config.txt turns SPI on). 0 = go on and fake it; -1 with errno. */
static int node_refuses(const char *path)
{
    const char *nodes = getenv("PIBOX_SHIM_NODES");
    if (!nodes || strcmp(nodes, "1")) return 0;
    if (access(path, R_OK | W_OK) == 0) return 0;
    int why = errno;
    shim_log("open %s refused like the kernel would: %s", path, strerror(why));
    errno = why;
    return -1;
}

static int open_device(const char *path)
{
    int fd = -2;
    if ((!strcmp(path, "/dev/spidev0.0") || !strcmp(path, "/dev/gpiomem") ||
         !strcmp(path, "/dev/gpiochip0")) && node_refuses(path))
        return -1;
    if (!strcmp(path, "/dev/spidev0.0")) {
        if (getenv("PIBOX_SHIM_NO_SPI")) { /* a Pi with dtparam=spi=on missing */
            errno = ENOENT;
            return -1;
        }
        fd = memfd_create("spidev0.0", MFD_CLOEXEC);
        mark(fd, K_SPI, 0);
        shim_log("open /dev/spidev0.0 fd=%d", fd);
    } else if (!strcmp(path, "/dev/gpiomem")) {
        if (getenv("PIBOX_SHIM_NO_GPIOMEM")) {
            errno = ENOENT;
            return -1;
        }
        fd = memfd_create("gpiomem", MFD_CLOEXEC);
        if (fd >= 0 && ftruncate(fd, GPIOMEM_SIZE) == 0) {
            pthread_mutex_lock(&lock);
            if (!gpiomem_view) {
                void *view = real_mmap(NULL, GPIOMEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (view != MAP_FAILED) gpiomem_view = view;
            }
            pthread_mutex_unlock(&lock);
        }
        mark(fd, K_GPIOMEM, 0);
        shim_log("open /dev/gpiomem fd=%d", fd);
    } else if (!strcmp(path, "/dev/gpiochip0")) {
        fd = memfd_create("gpiochip0", MFD_CLOEXEC);
        mark(fd, K_CHIP, 0);
        shim_log("open /dev/gpiochip0 fd=%d", fd);
        pthread_mutex_lock(&lock);
        if (!injector_started) {
            pthread_t t;
            injector_started = 1;
            if (pthread_create(&t, NULL, injector, NULL) == 0) pthread_detach(t);
        }
        pthread_mutex_unlock(&lock);
    }
    return fd;
}

static int shim_open_path(const char *path)
{
    if (!path) return -2;
    int fd = fake_file(path);
    if (fd != -2) return fd;
    return open_device(path);
}

/* The mode argument open/openat take only with O_CREAT or O_TMPFILE. */
#define OPEN_MODE(mode, flags)                                                                     \
    mode_t mode = 0;                                                                               \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                         \
        va_list ap;                                                                                \
        va_start(ap, flags);                                                                       \
        mode = va_arg(ap, mode_t);                                                                 \
        va_end(ap);                                                                                \
    }

int openat(int dirfd, const char *path, int flags, ...)
{
    OPEN_MODE(mode, flags);
    if (path[0] == '/') {
        int fd = shim_open_path(path);
        if (fd != -2) return fd;
    }
    return real_openat(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int open(const char *path, int flags, ...)
{
    OPEN_MODE(mode, flags);
    return openat(AT_FDCWD, path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open(path, flags); }

/* glibc's fopen opens with an internal call the preload cannot see: answer it here. */
FILE *fopen(const char *path, const char *mode)
{
    int fd = shim_open_path(path);
    if (fd == -1) return NULL;
    if (fd >= 0) return fdopen(fd, mode[0] == 'r' && !strchr(mode, '+') ? "r" : "r+");
    return real_fopen(path, mode);
}
FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fd >= 0 && fd < MAX_FD && fd_kind[fd] == K_GPIOMEM) {
        /* /dev/gpiomem maps the GPIO block whatever the offset (rpi-ws281x passes the
         * peripheral's physical address): map the page from its start. */
        if (len > GPIOMEM_SIZE) {
            errno = EINVAL;
            return MAP_FAILED;
        }
        shim_log("mmap /dev/gpiomem offset=0x%lx len=%zu", (unsigned long)off, len);
        return real_mmap(addr, len, prot, flags, fd, 0);
    }
    return real_mmap(addr, len, prot, flags, fd, off);
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias("mmap")));

static void release_request(int idx)
{
    struct line_req *r = &reqs[idx];
    if (!r->used) return;
    real_close(r->write_fd);
    r->used = 0;
    shim_log("line request released lines=%u", r->num_lines);
}

int close(int fd)
{
    if (fd >= 0 && fd < MAX_FD && fd_kind[fd] != K_NONE) {
        pthread_mutex_lock(&lock);
        if (fd_kind[fd] == K_LINE) release_request(fd_req[fd]);
        fd_kind[fd] = K_NONE;
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}

/* ---- SPI: decode the WS2812 frame ---- */

static void spi_frame(const uint8_t *tx, uint32_t len)
{
    size_t nbits = (size_t)len * 8, pos = 0, data_bits = 0;
    unsigned bad = 0;
    uint8_t *out = calloc(len / 3 + 1, 1);
    if (!out) return;
    for (; pos + 3 <= nbits; pos += 3) {
        int b0 = (tx[pos / 8] >> (7 - pos % 8)) & 1;
        int b1 = (tx[(pos + 1) / 8] >> (7 - (pos + 1) % 8)) & 1;
        int b2 = (tx[(pos + 2) / 8] >> (7 - (pos + 2) % 8)) & 1;
        int sym = b0 << 2 | b1 << 1 | b2;
        if (sym == 0) break; /* the line stays low: the reset (latch) begins */
        if (sym != 6 && sym != 4) bad++;
        if (sym == 6) out[data_bits / 8] |= 0x80 >> (data_bits % 8);
        data_bits++;
    }
    size_t low = 0;
    for (size_t p = pos; p < nbits; p++) {
        if ((tx[p / 8] >> (7 - p % 8)) & 1) bad++; /* data after the reset */
        else low++;
    }
    if (data_bits % 24) bad++;
    unsigned leds = data_bits / 24;
    const char *fn = "unknown";
    if (gpiomem_view) {
        uint32_t f = (gpiomem_view[1] >> 0) & 7; /* GPFSEL1, GPIO 10 = bits 0-2 */
        fn = f == 4 ? "alt0" : f == 0 ? "input" : f == 1 ? "output" : "other";
    }
    double reset_us = spi_speed ? low * 1e6 / spi_speed : 0;
    char path[512], tmp[560];
    snprintf(path, sizeof path, "%s/leds", shim_dir());
    snprintf(tmp, sizeof tmp, "%s.%d", path, getpid());
    int fd = real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        if (f) {
            fprintf(f, "frame %u\npid %d\nspeed_hz %u\nmode %u\nbits_per_word %u\n"
                       "gpio10_function %s\nleds %u\nreset_us %.0f\nbad_symbols %u\ngrb",
                    ++frames, getpid(), spi_speed, spi_mode_v, spi_bits, fn, leds, reset_us, bad);
            for (unsigned i = 0; i < leds; i++)
                fprintf(f, " %02x%02x%02x", out[3 * i], out[3 * i + 1], out[3 * i + 2]);
            fputc('\n', f);
            fclose(f);
            rename(tmp, path);
        } else {
            real_close(fd);
        }
    }
    free(out);
}

static int spi_ioctl(unsigned long req, void *arg)
{
    if (!arg) {
        errno = EFAULT;
        return -1;
    }
    if (req == SPI_IOC_WR_MODE) spi_mode_v = *(uint8_t *)arg;
    else if (req == SPI_IOC_RD_MODE) *(uint8_t *)arg = spi_mode_v;
    else if (req == SPI_IOC_WR_MODE32) spi_mode_v = *(uint32_t *)arg;
    else if (req == SPI_IOC_RD_MODE32) *(uint32_t *)arg = spi_mode_v;
    else if (req == SPI_IOC_WR_BITS_PER_WORD) spi_bits = *(uint8_t *)arg;
    else if (req == SPI_IOC_RD_BITS_PER_WORD) *(uint8_t *)arg = spi_bits;
    else if (req == SPI_IOC_WR_MAX_SPEED_HZ) spi_speed = *(uint32_t *)arg;
    else if (req == SPI_IOC_RD_MAX_SPEED_HZ) *(uint32_t *)arg = spi_speed;
    else if (req == SPI_IOC_MESSAGE(1)) {
        struct spi_ioc_transfer *tr = arg;
        if (!tr->tx_buf) {
            errno = EINVAL;
            return -1;
        }
        /* spidev refuses a transfer longer than its buffer (module parameter bufsiz,
         * 4096 bytes unless cmdline.txt sets spidev.bufsiz) with EMSGSIZE. */
        const char *bs = getenv("PIBOX_SHIM_SPI_BUFSIZ");
        unsigned long bufsiz = bs && *bs ? strtoul(bs, NULL, 10) : 4096;
        if (tr->len > bufsiz) {
            shim_log("spi: refused a %u-byte transfer (spidev.bufsiz=%lu)", tr->len, bufsiz);
            errno = EMSGSIZE;
            return -1;
        }
        if (tr->speed_hz) spi_speed = tr->speed_hz;
        spi_frame((const uint8_t *)(uintptr_t)tr->tx_buf, tr->len);
        return (int)tr->len; /* the kernel returns the bytes transferred */
    } else {
        shim_log("spi: unsupported ioctl 0x%lx", req);
        errno = ENOTTY;
        return -1;
    }
    return 0;
}

/* ---- GPIO character device ---- */

static uint64_t flags_for(const struct gpio_v2_line_config *c, unsigned i)
{
    uint64_t flags = c->flags;
    for (unsigned a = 0; a < c->num_attrs && a < GPIO_V2_LINE_NUM_ATTRS_MAX; a++)
        if (c->attrs[a].attr.id == GPIO_V2_LINE_ATTR_ID_FLAGS && (c->attrs[a].mask >> i & 1))
            flags = c->attrs[a].attr.flags;
    return flags;
}

static int line_level(unsigned offset, uint64_t flags)
{
    int v = level[offset];
    if (v < 0) v = (flags & GPIO_V2_LINE_FLAG_BIAS_PULL_UP) ? 1 : 0;
    if (flags & GPIO_V2_LINE_FLAG_ACTIVE_LOW) v = !v;
    return v;
}

static int line_holder(unsigned offset, int *slot)
{
    for (int r = 0; r < 64; r++)
        if (reqs[r].used)
            for (unsigned i = 0; i < reqs[r].num_lines; i++)
                if (reqs[r].offsets[i] == offset) {
                    if (slot) *slot = i;
                    return r;
                }
    return -1;
}

static int chip_ioctl(unsigned long req, void *arg)
{
    if (req == GPIO_GET_CHIPINFO_IOCTL) {
        struct gpiochip_info *info = arg;
        memset(info, 0, sizeof *info);
        strcpy(info->name, "gpiochip0");
        strcpy(info->label, "pinctrl-bcm2711");
        info->lines = CHIP_LINES;
        return 0;
    }
    if (req == GPIO_V2_GET_LINEINFO_IOCTL) {
        struct gpio_v2_line_info *li = arg;
        unsigned offset = li->offset;
        if (offset >= CHIP_LINES) {
            errno = EINVAL;
            return -1;
        }
        memset(li, 0, sizeof *li);
        li->offset = offset;
        snprintf(li->name, sizeof li->name, "GPIO%u", offset);
        int slot = 0, r = line_holder(offset, &slot);
        if (r >= 0) {
            li->flags = reqs[r].flags[slot] | GPIO_V2_LINE_FLAG_USED;
            memcpy(li->consumer, reqs[r].consumer, sizeof li->consumer);
        } else {
            li->flags = GPIO_V2_LINE_FLAG_INPUT;
        }
        return 0;
    }
    if (req == GPIO_V2_GET_LINE_IOCTL) {
        struct gpio_v2_line_request *lr = arg;
        if (lr->num_lines == 0 || lr->num_lines > GPIO_V2_LINES_MAX) {
            errno = EINVAL;
            return -1;
        }
        for (unsigned i = 0; i < lr->num_lines; i++) {
            if (lr->offsets[i] >= CHIP_LINES) {
                errno = EINVAL;
                return -1;
            }
            if (line_holder(lr->offsets[i], NULL) >= 0) {
                errno = EBUSY; /* the kernel's answer for a line already requested */
                return -1;
            }
        }
        int idx = -1;
        for (int r = 0; r < 64; r++)
            if (!reqs[r].used) {
                idx = r;
                break;
            }
        int p[2];
        if (idx < 0 || pipe2(p, O_CLOEXEC) < 0) {
            errno = ENOMEM;
            return -1;
        }
        fcntl(p[1], F_SETFL, O_NONBLOCK);
        struct line_req *r = &reqs[idx];
        memset(r, 0, sizeof *r);
        r->used = 1;
        r->read_fd = p[0];
        r->write_fd = p[1];
        r->num_lines = lr->num_lines;
        memcpy(r->consumer, lr->consumer, sizeof r->consumer);
        for (unsigned i = 0; i < lr->num_lines; i++) {
            r->offsets[i] = lr->offsets[i];
            r->flags[i] = flags_for(&lr->config, i);
            for (unsigned a = 0; a < lr->config.num_attrs && a < GPIO_V2_LINE_NUM_ATTRS_MAX; a++) {
                const struct gpio_v2_line_config_attribute *ca = &lr->config.attrs[a];
                if (ca->attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES && (ca->mask >> i & 1) &&
                    (r->flags[i] & GPIO_V2_LINE_FLAG_OUTPUT))
                    level[r->offsets[i]] = (ca->attr.values >> i) & 1;
            }
        }
        mark(p[0], K_LINE, idx);
        lr->fd = p[0];
        shim_log("line request gpio=%u lines=%u flags=0x%llx consumer=%.32s fd=%d", r->offsets[0],
                 r->num_lines, (unsigned long long)r->flags[0], r->consumer, p[0]);
        return 0;
    }
    shim_log("gpiochip: unsupported ioctl 0x%lx", req);
    errno = ENOTTY;
    return -1;
}

static int line_ioctl(int idx, unsigned long req, void *arg)
{
    struct line_req *r = &reqs[idx];
    if (req == GPIO_V2_LINE_GET_VALUES_IOCTL) {
        struct gpio_v2_line_values *v = arg;
        uint64_t bits = 0;
        for (unsigned i = 0; i < r->num_lines; i++)
            if ((v->mask >> i & 1) && line_level(r->offsets[i], r->flags[i])) bits |= 1ULL << i;
        v->bits = bits;
        return 0;
    }
    if (req == GPIO_V2_LINE_SET_VALUES_IOCTL) {
        struct gpio_v2_line_values *v = arg;
        for (unsigned i = 0; i < r->num_lines; i++) {
            if (!(v->mask >> i & 1)) continue;
            if (!(r->flags[i] & GPIO_V2_LINE_FLAG_OUTPUT)) {
                errno = EPERM;
                return -1;
            }
            int val = (v->bits >> i) & 1;
            if (r->flags[i] & GPIO_V2_LINE_FLAG_ACTIVE_LOW) val = !val;
            level[r->offsets[i]] = val;
            shim_log("output gpio=%u level=%d", r->offsets[i], val);
        }
        return 0;
    }
    if (req == GPIO_V2_LINE_SET_CONFIG_IOCTL) {
        struct gpio_v2_line_config *c = arg;
        for (unsigned i = 0; i < r->num_lines; i++) r->flags[i] = flags_for(c, i);
        return 0;
    }
    shim_log("line: unsupported ioctl 0x%lx", req);
    errno = ENOTTY;
    return -1;
}

int ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (fd >= 0 && fd < MAX_FD && fd_kind[fd] != K_NONE) {
        int ret;
        pthread_mutex_lock(&lock);
        switch (fd_kind[fd]) {
        case K_SPI: ret = spi_ioctl(req, arg); break;
        case K_CHIP: ret = chip_ioctl(req, arg); break;
        case K_LINE: ret = line_ioctl(fd_req[fd], req, arg); break;
        default: errno = ENOTTY; ret = -1;
        }
        pthread_mutex_unlock(&lock);
        return ret;
    }
    return real_ioctl(fd, req, arg);
}

/* ---- button edges from outside ---- */

static void set_level(unsigned offset, int value)
{
    struct timespec mono, real;
    clock_gettime(CLOCK_MONOTONIC, &mono);
    clock_gettime(CLOCK_REALTIME, &real);
    pthread_mutex_lock(&lock);
    int slot = 0, r = line_holder(offset, &slot);
    int before = r >= 0 ? line_level(offset, reqs[r].flags[slot]) : level[offset] > 0;
    level[offset] = value;
    int delivered = 0;
    if (r >= 0) {
        struct line_req *q = &reqs[r];
        uint64_t fl = q->flags[slot];
        int after = line_level(offset, fl);
        int rising = !before && after, falling = before && !after;
        if ((rising && (fl & GPIO_V2_LINE_FLAG_EDGE_RISING)) ||
            (falling && (fl & GPIO_V2_LINE_FLAG_EDGE_FALLING))) {
            struct gpio_v2_line_event ev;
            memset(&ev, 0, sizeof ev);
            struct timespec *ts = (fl & GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME) ? &real : &mono;
            ev.timestamp_ns = (uint64_t)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
            ev.id = rising ? GPIO_V2_LINE_EVENT_RISING_EDGE : GPIO_V2_LINE_EVENT_FALLING_EDGE;
            ev.offset = offset;
            ev.seqno = ++q->seqno;
            ev.line_seqno = ++q->line_seqno[slot];
            delivered = write(q->write_fd, &ev, sizeof ev) == (ssize_t)sizeof ev;
        }
    }
    pthread_mutex_unlock(&lock);
    shim_log("button gpio=%u level=%d requested=%s event=%s", offset, value, r >= 0 ? "yes" : "no",
             delivered ? "delivered" : "none");
}

static void *injector(void *arg)
{
    (void)arg;
    char path[512], buf[256];
    snprintf(path, sizeof path, "%s/buttons", shim_dir());
    if (mkfifo(path, 0666) < 0 && errno != EEXIST) {
        shim_log("cannot make the button FIFO %s: %s", path, strerror(errno));
        return NULL;
    }
    chmod(path, 0666);
    /* O_RDWR: the FIFO never reports end of file when a writer goes. */
    int fd = real_open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        shim_log("cannot open the button FIFO %s: %s", path, strerror(errno));
        return NULL;
    }
    shim_log("buttons: reading %s", path);
    size_t have = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            break;
        }
        have += n;
        buf[have] = 0;
        char *nl;
        while ((nl = strchr(buf, '\n'))) {
            *nl = 0;
            unsigned gpio;
            int value;
            if (sscanf(buf, "%u %d", &gpio, &value) == 2 && gpio < CHIP_LINES &&
                (value == 0 || value == 1))
                set_level(gpio, value);
            else
                shim_log("buttons: ignored '%s' (want '<gpio> <0|1>')", buf);
            size_t rest = have - (nl + 1 - buf);
            memmove(buf, nl + 1, rest + 1);
            have = rest;
        }
        if (have == sizeof buf - 1) have = 0; /* a line too long: drop it */
    }
    real_close(fd);
    return NULL;
}
