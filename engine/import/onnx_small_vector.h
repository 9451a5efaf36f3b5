// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A vector of trivially copyable elements that keeps up to N of them inline. Lowering an 80-layer
// model builds tens of thousands of view axes and loop-axis bindings with one or two entries
// each; as std::vectors their allocations were the largest cost of the import.

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>

namespace elk::import::onnx_detail {

template <typename T, std::size_t N> class SmallVector {
    static_assert(std::is_trivially_copyable_v<T>, "SmallVector copies elements with memcpy semantics");

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<T*>;
    using const_reverse_iterator = std::reverse_iterator<const T*>;

    SmallVector() = default;
    SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    template <typename It> SmallVector(It first, It last) { assign(first, last); }
    SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
    SmallVector(SmallVector&& other) noexcept { moveFrom(other); }
    SmallVector& operator=(const SmallVector& other)
    {
        if (this != &other) {
            m_size = 0;
            assign(other.begin(), other.end());
        }
        return *this;
    }
    SmallVector& operator=(SmallVector&& other) noexcept
    {
        if (this != &other) {
            release();
            moveFrom(other);
        }
        return *this;
    }
    ~SmallVector() { release(); }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    T* data() { return m_heap ? m_heap.get() : m_inline; }
    const T* data() const { return m_heap ? m_heap.get() : m_inline; }
    T& operator[](std::size_t i) { return data()[i]; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    T& front() { return data()[0]; }
    const T& front() const { return data()[0]; }
    T& back() { return data()[m_size - 1]; }
    const T& back() const { return data()[m_size - 1]; }
    iterator begin() { return data(); }
    iterator end() { return data() + m_size; }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + m_size; }
    reverse_iterator rbegin() { return reverse_iterator(end()); }
    reverse_iterator rend() { return reverse_iterator(begin()); }
    const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

    void reserve(std::size_t capacity)
    {
        if (capacity <= m_capacity)
            return;
        std::unique_ptr<T[]> grown(new T[capacity]);
        std::copy(begin(), end(), grown.get());
        m_heap = std::move(grown);
        m_capacity = capacity;
    }
    void push_back(const T& value)
    {
        const T copy = value; // `value` may live in this vector's storage
        if (m_size == m_capacity)
            reserve(m_capacity * 2);
        data()[m_size++] = copy;
    }
    void pop_back() { --m_size; }
    void clear() { m_size = 0; }
    template <typename It> void insert(iterator at, It first, It last)
    {
        // Only appending is needed (and supported).
        (void)at;
        for (; first != last; ++first)
            push_back(*first);
    }
    bool operator==(const SmallVector& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    template <typename It> void assign(It first, It last)
    {
        for (; first != last; ++first)
            push_back(*first);
    }
    void moveFrom(SmallVector& other)
    {
        if (other.m_heap) {
            m_heap = std::move(other.m_heap);
            m_capacity = other.m_capacity;
        } else {
            std::copy(other.m_inline, other.m_inline + other.m_size, m_inline);
            m_capacity = N;
        }
        m_size = other.m_size;
        other.m_size = 0;
        other.m_capacity = N;
    }
    void release()
    {
        m_heap.reset();
        m_capacity = N;
        m_size = 0;
    }

    T m_inline[N] {};
    std::unique_ptr<T[]> m_heap;
    std::size_t m_size = 0;
    std::size_t m_capacity = N;
};

} // namespace elk::import::onnx_detail
